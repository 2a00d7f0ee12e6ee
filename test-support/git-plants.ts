import { readdir } from 'node:fs/promises';

/**
 * What a model's commands (or a pull request's author steering them) can plant so that a later
 * `git add`/`commit`/`fetch`/`rebase`/`push` of the action runs a program: each form is a shell
 * script run at the workspace's root, as the Bash tool would run it. The program they all name,
 * `evil.sh`, writes its whole environment (the push credential, if git gave it one) to a file in
 * `markers`, a directory outside the workspace; as a filter it passes its input through, so the
 * work would still look committed.
 */
export type PlantForm = 'config' | 'include' | 'commondir' | 'alternates' | 'info-attributes' | 'worktrees' | 'global-gitattributes';

export const PLANT_FORMS: readonly PlantForm[] = [
  'config',
  'include',
  'commondir',
  'alternates',
  'info-attributes',
  'worktrees',
  'global-gitattributes',
];

/** Every place git takes a program from config, each naming evil.sh (run with sh: no exec bit needed). */
function evilConfig(ws: string): string {
  const run = `sh ${ws}/evil.sh`;
  return [
    '[core]',
    `\tfsmonitor = ${run}`,
    `\tsshCommand = ${run}`,
    `\taskPass = ${run}`,
    `\tpager = ${run}`,
    `\teditor = ${run}`,
    `\thooksPath = ${ws}/evil-hooks`,
    '[filter "evil"]',
    `\tclean = ${run}`,
    `\tsmudge = ${run}`,
    '[diff "evil"]',
    `\ttextconv = ${run}`,
    '[merge "evil"]',
    `\tdriver = ${run}`,
    '[remote "origin"]',
    `\treceivepack = ${run}`,
    `\tuploadpack = ${run}`,
    '[credential]',
    `\thelper = !${run}`,
    '[gc]',
    '\tauto = 1',
    '',
  ].join('\n');
}

/** The program, the hooks, and attributes that send every file through the evil drivers. */
function prelude(ws: string, markers: string): string {
  const hook = `#!/bin/sh\nsh ${ws}/evil.sh hook\n`;
  return [
    `cat > evil.sh <<'EOF'\nenv > "${markers}/ran.$$"\n[ $# -eq 0 ] && exec cat\nexit 1\nEOF`,
    'mkdir -p evil-hooks',
    ...['pre-commit', 'pre-push', 'post-commit', 'reference-transaction', 'post-rewrite', 'pre-rebase', 'pre-auto-gc'].map(
      (h) => `printf '%s' '${hook}' > evil-hooks/${h} && chmod +x evil-hooks/${h}`,
    ),
    `printf '* filter=evil diff=evil merge=evil\\n' > .gitattributes`,
  ].join('\n');
}

function form(kind: PlantForm, ws: string): string {
  const evil = evilConfig(ws);
  switch (kind) {
    case 'config':
      return `cat >> .git/config <<'EOF'\n${evil}EOF`;
    case 'include':
      return `mkdir -p evil && cat > evil/evil.cfg <<'EOF'\n${evil}EOF\nprintf '[include]\\n\\tpath = ${ws}/evil/evil.cfg\\n[includeIf "gitdir:/"]\\n\\tpath = ${ws}/evil/evil.cfg\\n' >> .git/config`;
    case 'commondir':
      // A copy of the repository whose config has the programs, and the redirect to it.
      return `mkdir -p evil && cp -r .git evil/common && cat >> evil/common/config <<'EOF'\n${evil}EOF\necho '${ws}/evil/common' > .git/commondir`;
    case 'alternates':
      return `mkdir -p evil/objects .git/objects/info && echo '${ws}/evil/objects' >> .git/objects/info/alternates`;
    case 'info-attributes':
      return `mkdir -p .git/info evil && printf '* filter=evil diff=evil\\n' >> .git/info/attributes && cat > evil/evil.cfg <<'EOF'\n${evil}EOF\nprintf '[include]\\n\\tpath = ${ws}/evil/evil.cfg\\n' >> .git/config`;
    case 'worktrees':
      return [
        'mkdir -p .git/worktrees/w evil/wt',
        `echo '${ws}/evil/wt/.git' > .git/worktrees/w/gitdir`,
        "echo '../..' > .git/worktrees/w/commondir",
        'git rev-parse HEAD > .git/worktrees/w/HEAD',
        `cat > .git/worktrees/w/config.worktree <<'EOF'\n${evil}EOF`,
        `echo 'gitdir: ${ws}/.git/worktrees/w' > evil/wt/.git`,
      ].join('\n');
    case 'global-gitattributes':
      // The runner's HOME (where sandbox: off leaves it): a global config defining the drivers the tree's .gitattributes names.
      return `cat >> "$HOME/.gitconfig" <<'EOF'\n${evil}EOF\nmkdir -p "$HOME/.config/git" && printf '* filter=evil\\n' >> "$HOME/.config/git/attributes"`;
  }
}

/** One script planting `kinds` in the workspace `ws`; each line may fail (a read-only .git) without stopping the rest. */
export function plantScript(ws: string, markers: string, kinds: readonly PlantForm[] = PLANT_FORMS): string {
  return [prelude(ws, markers), ...kinds.map((k) => form(k, ws))].join('\n');
}

/** The files planted programs wrote: empty when none ran. */
export async function markersIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [])).sort();
}
