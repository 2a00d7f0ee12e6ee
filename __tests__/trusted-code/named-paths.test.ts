import { argvPaths, commandPaths, rewriteCommand } from '../../src/trusted-code/named-paths.js';

const WS = '/work/repo';
const paths = (command: string) => commandPaths(command, WS).map((n) => n.path);

describe('the workspace paths a trusted command names', () => {
  it('finds argv words that resolve inside the workspace, quoted or not, relative or absolute', () => {
    expect(paths('bash .claude/hooks/guard.sh')).toEqual(['.claude/hooks/guard.sh']);
    expect(paths(`node 'tools/lint server.mjs' --fix && "${WS}/scripts/x.sh"`)).toEqual(['tools/lint server.mjs', 'scripts/x.sh']);
    expect(paths('python3 ./a/../b/c.py')).toEqual(['b/c.py']);
  });

  it('expands $CLAUDE_PROJECT_DIR to the workspace, in the forms Claude Code documents', () => {
    expect(paths('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh')).toEqual(['.claude/hooks/x.sh']);
    expect(paths('bash ${CLAUDE_PROJECT_DIR}/.claude/hooks/y.sh')).toEqual(['.claude/hooks/y.sh']);
    expect(paths('bash "$CLAUDE_PROJECT_DIR/.claude/hooks/z.sh"')).toEqual(['.claude/hooks/z.sh']);
  });

  it('counts a bare command name as a PATH lookup, options and outside paths as nothing, and looks inside $(...)', () => {
    expect(paths('node --check /etc/passwd ../outside')).toEqual([]);
    expect(paths('./run.sh')).toEqual(['run.sh']);
    expect(paths('echo $(cat .claude/list.txt)')).toEqual(['.claude/list.txt']);
    expect(paths('node check.mjs < .claude/input.json')).toEqual(['check.mjs', '.claude/input.json']);
    expect(paths('bash $OTHER/x.sh ~/y.sh *.sh')).toEqual([]);
    expect(paths('if then fi (')).toEqual([]);
  });

  it('rewrites only the words that name a replaced path, keeping the rest of the command byte for byte', () => {
    const command = 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh --flag | tee out.log';
    const named = commandPaths(command, WS);
    const out = rewriteCommand(command, named, (rel) => (rel.startsWith('.claude/') ? `/trusted/it's/${rel}` : undefined));
    expect(out).toBe(`bash '/trusted/it'\\''s/.claude/hooks/x.sh' --flag | tee out.log`);
  });

  it('takes an MCP server argv word by word, the command only with a slash', () => {
    expect(argvPaths(['node', 'tools/server.mjs', '--port=3'], WS)).toEqual([undefined, 'tools/server.mjs', undefined]);
    expect(argvPaths(['./bin/server'], WS)).toEqual(['bin/server']);
  });
});
