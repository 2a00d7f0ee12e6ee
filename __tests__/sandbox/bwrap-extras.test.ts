import { bwrapArgs, type BwrapLayout } from '../../src/sandbox/index.js';

const layout: BwrapLayout = {
  workspace: '/ws',
  hide: [{ path: '/rt', kind: 'dir' }],
  readOnlyInWorkspace: ['/ws/.git/config'],
  network: 'on',
  env: { PATH: '/usr/bin' },
  user: { kind: 'unprivileged' },
};

describe("a process's own additions to the sandbox", () => {
  it('binds its files read-only after every other mount, so they cover the workspace and hidden dirs, and adds its variables', () => {
    const args = bwrapArgs(layout, ['true'], {
      env: { CLAUDE_PROJECT_DIR: '/ws' },
      binds: [
        { source: '/rt/copies', dest: '/rt/copies' },
        { source: '/rt/copies/.claude', dest: '/ws/.claude' },
      ],
    });
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at('--ro-bind', '/rt/copies', '/rt/copies')).toBeGreaterThan(at('--tmpfs', '/rt'));
    expect(at('--ro-bind', '/rt/copies/.claude', '/ws/.claude')).toBeGreaterThan(at('--bind', '/ws', '/ws'));
    expect(at('--ro-bind', '/rt/copies', '/rt/copies')).toBeGreaterThan(at('--ro-bind', '/ws/.git/config', '/ws/.git/config'));
    expect(at('--setenv', 'CLAUDE_PROJECT_DIR', '/ws')).toBeGreaterThan(at('--clearenv'));
    expect(args.slice(-2)).toEqual(['--', 'true']);
  });

  it('adds nothing without extras', () => {
    expect(bwrapArgs(layout, ['true'], {})).toEqual(bwrapArgs(layout, ['true']));
    expect(bwrapArgs(layout, ['true']).filter((a) => a === '--ro-bind')).toHaveLength(2);
  });
});
