// A second line of defence: even a variable allowed above, or passed in extra, is dropped when
// its name says it grants access.
const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL/i;
const SECRET_PREFIXES: readonly string[] = ['ANTHROPIC_', 'INPUT_', 'ACTIONS_', 'GH_', 'GITHUB_TOKEN'];

/** True when a variable of this name must never reach a tool. */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAME.test(name) || SECRET_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
