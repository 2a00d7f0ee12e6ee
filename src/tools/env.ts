import { isSecretVariable } from '../secrets/names.js';

export { isSecretVariable } from '../secrets/names.js';

/** Variables a command may inherit: what toolchains need to find themselves, nothing that grants access. */
export const INHERITED_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'NODE_ENV',
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'PYENV_ROOT',
  'PIPX_HOME',
  'DOTNET_ROOT',
  'npm_config_cache',
  'GITHUB_WORKSPACE',
  'GITHUB_REPOSITORY',
  'GITHUB_SHA',
  'GITHUB_REF',
  'GITHUB_REF_NAME',
  'GITHUB_BASE_REF',
  'GITHUB_HEAD_REF',
  'RUNNER_OS',
  'RUNNER_ARCH',
  'CI',
];

const INHERITED_PREFIXES: readonly string[] = ['LC_'];

/** Settings that make editors, pagers, prompts and colour codes stay out of a headless run. */
export const NON_INTERACTIVE_VARIABLES: Readonly<Record<string, string>> = {
  CI: 'true',
  TERM: 'dumb',
  GIT_EDITOR: 'true',
  EDITOR: 'true',
  VISUAL: 'true',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  DEBIAN_FRONTEND: 'noninteractive',
  NO_COLOR: '1',
  npm_config_yes: 'true',
};

function isInherited(name: string): boolean {
  return INHERITED_VARIABLES.includes(name) || INHERITED_PREFIXES.some((p) => name.startsWith(p));
}

/**
 * The environment tools run with: an allowlist of source, then the non-interactive settings,
 * then extra (deliberate additions, still filtered for secrets).
 */
export function toolEnvironment(source: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && isInherited(name)) env[name] = value;
  }
  Object.assign(env, NON_INTERACTIVE_VARIABLES);
  for (const [name, value] of Object.entries(extra)) env[name] = value;
  for (const name of Object.keys(env)) {
    if (isSecretVariable(name)) delete env[name];
  }
  return env;
}
