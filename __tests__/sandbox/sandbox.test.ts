import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import {
  bwrapArgs,
  prepareSandbox,
  SandboxUnavailableError,
  type RunCommand,
  type Sandbox,
  type SandboxOptions,
} from '../../src/sandbox/index.js';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { toolEnvironment } from '../../src/tools/env.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

const SSH_CANARY = 'canary-ssh-key-5f1c';
const TEMP_CANARY = 'canary-runner-temp-9a2e';

let base: string;
let workspace: string;
let home: string;
let runnerTemp: string;
let options: SandboxOptions;
let sandbox: Sandbox;
const disposables: Sandbox[] = [];

async function makeTree(): Promise<void> {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sandbox-')));
  workspace = path.join(base, 'ws');
  home = path.join(base, 'home');
  runnerTemp = path.join(base, 'runner-temp');
  await fs.mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true });
  await fs.writeFile(path.join(workspace, '.git', 'config'), '[core]\n\tbare = false\n');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), SSH_CANARY);
  await fs.mkdir(path.join(home, '.cargo', 'bin'), { recursive: true });
  await fs.writeFile(path.join(home, '.cargo', 'bin', 'tool'), '#!/bin/sh\necho toolchain-ok\n', { mode: 0o755 });
  await fs.mkdir(runnerTemp);
  await fs.writeFile(path.join(runnerTemp, 'credentials'), TEMP_CANARY);
}

async function prepare(extra: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const prepared = await prepareSandbox({ ...options, ...extra });
  disposables.push(prepared);
  return prepared;
}

beforeAll(async () => {
  await makeTree();
  options = {
    mode: 'auto',
    network: 'on',
    workspace,
    home,
    hide: [runnerTemp],
    readOnlyInWorkspace: ['.git/config', '.git/hooks'],
    env: toolEnvironment(process.env),
  };
  sandbox = await prepare();
  console.log(`sandbox tests ran in ${sandbox.kind === 'bubblewrap' ? 'SANDBOXED' : 'FALLBACK'} mode: ${sandbox.description}`);
});

afterAll(async () => {
  await Promise.all(disposables.map((s) => s.dispose()));
  await fs.rm(base, { recursive: true, force: true });
});

async function bashIn(s: Sandbox, command: string, timeout = 8000): Promise<ToolResult> {
  const ctx: ToolContext = {
    workspace: await Workspace.open(workspace, { runnerTemp: '' }),
    signal: new AbortController().signal,
    env: options.env,
    outputLimit: 30_000,
  };
  return executeToolCall(new Map([['Bash', createBashTool({ wrap: s.wrap })]]), 'Bash', { command, timeout }, ctx);
}

const bash = (command: string): Promise<ToolResult> => bashIn(sandbox, command);
const isolated = (): boolean => sandbox.kind === 'bubblewrap';

/** Without bubblewrap the documented fallback holds: no sandbox, and the description says so. */
function expectFallback(): void {
  expect(sandbox.kind).toBe('none');
  expect(sandbox.description).toMatch(/WITHOUT a sandbox/);
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

describe('prepareSandbox', () => {
  it('runs commands that can write the workspace, in every mode', async () => {
    const result = await bash('echo made > made.txt && cat made.txt && pwd');
    expect(result).toMatchObject({ isError: false, content: expect.stringMatching(/^made\n.*\nexit code 0$/) });
    expect(result.content).toContain(workspace);
    expect(await fs.readFile(path.join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('fails closed in strict mode exactly when the sandbox is unavailable', async () => {
    if (isolated()) {
      expect((await prepare({ mode: 'strict' })).kind).toBe('bubblewrap');
    } else {
      expectFallback();
      await expect(prepareSandbox({ ...options, mode: 'strict' })).rejects.toThrow(SandboxUnavailableError);
    }
  });

  it('keeps writes outside the workspace off the host', async () => {
    if (!isolated()) return expectFallback();
    const varTmp = `/var/tmp/sandbox-escape-${process.pid}`;
    const result = await bash(
      `touch /etc/sandbox-escape; echo "etc=$?"; touch ${varTmp}; echo "var=$?"; touch ${home}/x; touch ${base}/outside`,
    );
    expect(result.content).toMatch(/etc=1/);
    expect(result.content).toMatch(/var=1/);
    expect(await exists('/etc/sandbox-escape')).toBe(false);
    expect(await exists(varTmp)).toBe(false);
    expect(await exists(path.join(home, 'x'))).toBe(false);
    expect(await exists(path.join(base, 'outside'))).toBe(false);
  });

  it('gives commands a private /tmp', async () => {
    const hostFile = path.join(os.tmpdir(), `sandbox-host-${process.pid}.txt`);
    await fs.writeFile(hostFile, 'canary-host-tmp');
    try {
      const result = await bash(`cat ${hostFile}; echo inner > /tmp/sandbox-inner-${process.pid}`);
      if (!isolated()) return expectFallback();
      expect(result.content).not.toContain('canary-host-tmp');
      expect(await exists(`/tmp/sandbox-inner-${process.pid}`)).toBe(false);
    } finally {
      await fs.rm(hostFile, { force: true });
      await fs.rm(`/tmp/sandbox-inner-${process.pid}`, { force: true });
    }
  });

  it('passes only the allowlisted environment, with HOME pointing at the private home', async () => {
    const result = await bash('env');
    const names = result.content
      .split('\n')
      .slice(0, -1)
      .map((line) => line.split('=')[0]);
    if (!isolated()) return expectFallback();
    const allowed = new Set([...Object.keys(options.env), 'HOME', 'PWD', 'SHLVL', '_', 'OLDPWD']);
    expect(names.filter((n) => n !== undefined && !allowed.has(n))).toEqual([]);
    expect(result.content).toContain(`HOME=${home}\n`);
  });

  it('hides the runner temp dir and the credentials in the home', async () => {
    const result = await bash(`cat ${runnerTemp}/credentials ${home}/.ssh/id_rsa; test -e ${home}/.ssh || echo no-ssh-dir`);
    if (!isolated()) return expectFallback();
    expect(result.content).not.toContain(TEMP_CANARY);
    expect(result.content).not.toContain(SSH_CANARY);
    expect(result.content).toContain('no-ssh-dir');
  });

  it('keeps toolchain dirs under the home usable but read-only', async () => {
    const result = await bash(`${home}/.cargo/bin/tool; touch ${home}/.cargo/bin/x; echo "touch=$?"`);
    if (!isolated()) return expectFallback();
    expect(result.content).toContain('toolchain-ok');
    expect(result.content).toMatch(/touch=1/);
  });

  it('makes .git/config and .git/hooks read-only but readable', async () => {
    const result = await bash('cat .git/config; echo x >> .git/config; echo "config=$?"; touch .git/hooks/pre-commit; echo "hook=$?"');
    if (!isolated()) return expectFallback();
    expect(result.content).toContain('bare = false');
    expect(result.content).toMatch(/config=1/);
    expect(result.content).toMatch(/hook=1/);
    expect(await fs.readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(await exists(path.join(workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('cuts the network only when network is off', async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const probe = `(echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused`;
    try {
      const on = await bash(probe);
      const off = await bashIn(await prepare({ network: 'off' }), probe);
      expect(on.content).toContain('connected');
      if (!isolated()) return expectFallback();
      expect(off.content).toContain('refused');
    } finally {
      server.close();
    }
  });
});

describe('process limit', () => {
  it('says so when nothing limits processes: root is exempt from RLIMIT_NPROC and no pids cgroup is used', async () => {
    const noCgroup = await prepare({ pidsCgroup: false });
    if (noCgroup.kind === 'none') return expectFallback();
    const root = process.getuid?.() === 0;
    console.log(`running as ${root ? 'root' : 'non-root'}: ${noCgroup.description}`);
    expect(noCgroup.processesLimited).toBe(!root);
    expect(noCgroup.description).toMatch(root ? /no process limit/ : /at most 2048 processes\b/);
  });
});

describe('prepareSandbox when bubblewrap cannot be used', () => {
  it('is off without looking for bubblewrap in mode off', async () => {
    const off = await prepare({ mode: 'off', bwrapPath: '/nonexistent/bwrap' });
    expect(off).toMatchObject({ kind: 'none', description: expect.stringMatching(/sandbox is off/) });
    expect(createBashTool({ wrap: off.wrap }).name).toBe('Bash');
  });

  it('fails closed in strict mode with a bogus bwrap path', async () => {
    await expect(prepareSandbox({ ...options, mode: 'strict', bwrapPath: '/nonexistent/bwrap' })).rejects.toThrow(
      /sandbox is required.*\/nonexistent\/bwrap/,
    );
  });

  it('says plainly in auto mode that commands run without a sandbox', async () => {
    const none = await prepare({ bwrapPath: '/nonexistent/bwrap' });
    expect(none.kind).toBe('none');
    expect(none.description).toMatch(/^Bash commands run WITHOUT a sandbox, because bubblewrap was not found at \/nonexistent\/bwrap/);
  });

  it('network: allowlist cannot be enforced without it: auto says the network is open, strict fails', async () => {
    const none = await prepare({ network: 'allowlist', bwrapPath: '/nonexistent/bwrap' });
    expect(none.kind).toBe('none');
    expect(none.networkRefused).toBeUndefined();
    expect(none.description).toMatch(/WITHOUT a sandbox.* The network is open \(network: allowlist needs the sandbox\)\.$/);
    await expect(prepareSandbox({ ...options, network: 'allowlist', mode: 'strict', bwrapPath: '/nonexistent/bwrap' })).rejects.toThrow(
      /sandbox is required/,
    );
    const off = await prepare({ mode: 'off', network: 'allowlist' });
    expect(off.description).toMatch(/The network is open\.$/);
  });
});

describe('AppArmor restriction of user namespaces', () => {
  const ok = { code: 0, stdout: '', stderr: '' };
  const denied = { code: 1, stdout: '', stderr: 'bwrap: setting up uid map: Permission denied\n' };
  const SYSCTL = ['sudo', '-n', 'sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0'];

  /** A runner where bwrap fails until the sysctl is lifted, and sudo works when sudoOk. */
  function simulated(sudoOk: boolean): { run: RunCommand; calls: string[][] } {
    const calls: string[][] = [];
    let lifted = false;
    const run: RunCommand = async (cmd, args) => {
      calls.push([cmd, ...args]);
      if (cmd === process.execPath) return lifted ? ok : denied;
      if (cmd !== 'sudo' || !sudoOk) return { code: 1, stdout: '', stderr: 'sudo: a password is required' };
      if (args[1] === 'sysctl') lifted = true;
      return ok;
    };
    return { run, calls };
  }

  async function restricted(): Promise<string> {
    const file = path.join(base, 'apparmor_restrict_unprivileged_userns');
    await fs.writeFile(file, '1\n');
    return file;
  }

  it('lifts the restriction with sudo on a GitHub-hosted runner, then sandboxes', async () => {
    const { run, calls } = simulated(true);
    const lifted = await prepare({
      bwrapPath: process.execPath,
      githubHosted: true,
      run,
      apparmorSysctlPath: await restricted(),
      pidsCgroup: false,
    });
    expect(lifted.kind).toBe('bubblewrap');
    expect(lifted.description).toMatch(/after lifting Ubuntu's AppArmor restriction/);
    expect(calls).toContainEqual(SYSCTL);
    expect(calls[calls.length - 1]?.[0]).toBe(process.execPath);
  });

  it('does not touch the sysctl off GitHub-hosted runners, and says why there is no sandbox', async () => {
    const { run, calls } = simulated(true);
    const apparmorSysctlPath = await restricted();
    const none = await prepare({ bwrapPath: process.execPath, run, apparmorSysctlPath });
    expect(none.kind).toBe('none');
    expect(none.description).toMatch(/WITHOUT a sandbox.*Permission denied.*AppArmor restricts unprivileged user namespaces/);
    expect(calls.some((c) => c[0] === 'sudo')).toBe(false);
    await expect(prepareSandbox({ ...options, mode: 'strict', bwrapPath: process.execPath, run, apparmorSysctlPath })).rejects.toThrow(
      /AppArmor/,
    );
  });

  it('fails closed in strict mode when sudo is not allowed', async () => {
    const { run, calls } = simulated(false);
    const attempt = prepareSandbox({
      ...options,
      mode: 'strict',
      bwrapPath: process.execPath,
      githubHosted: true,
      run,
      apparmorSysctlPath: await restricted(),
    });
    await expect(attempt).rejects.toThrow(SandboxUnavailableError);
    expect(calls).not.toContainEqual(SYSCTL);
  });
});

describe('bwrapArgs', () => {
  const layout = {
    workspace: '/home/runner/work/r/r',
    home: '/home/runner',
    toolchainDirs: ['/home/runner/.cargo'],
    hide: [
      { path: '/home/runner/work/_temp', kind: 'dir' as const },
      { path: '/home/runner/work/r/r/secret.env', kind: 'file' as const },
    ],
    readOnlyInWorkspace: ['/home/runner/work/r/r/.git/config'],
    network: 'off' as const,
    env: { PATH: '/usr/bin', HOME: '/home/runner' },
    user: { kind: 'unprivileged' as const },
  };
  const args = bwrapArgs(layout, ['bash', '-c', 'echo hi']);
  const at = (...seq: string[]): number => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

  it('hides the home first, then binds toolchains, the workspace and read-only files in that order', () => {
    const order = [
      at('--tmpfs', '/home/runner'),
      at('--ro-bind', '/home/runner/.cargo', '/home/runner/.cargo'),
      at('--tmpfs', '/home/runner/work/_temp'),
      at('--bind', layout.workspace, layout.workspace),
      at('--ro-bind', '/dev/null', '/home/runner/work/r/r/secret.env'),
      at('--ro-bind', '/home/runner/work/r/r/.git/config', '/home/runner/work/r/r/.git/config'),
    ];
    expect(order.every((i) => i > at('--ro-bind', '/', '/'))).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('isolates processes, clears the environment and ends with the command', () => {
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-user-try', '--unshare-net']) {
      expect(args).toContain(flag);
    }
    expect(at('--proc', '/proc')).toBeGreaterThan(-1);
    expect(at('--clearenv')).toBeLessThan(at('--setenv', 'PATH', '/usr/bin'));
    expect(at('--setenv', 'HOME', '/home/runner')).toBeGreaterThan(-1);
    expect(args.slice(-6)).toEqual(['--chdir', layout.workspace, '--', 'bash', '-c', 'echo hi']);
  });

  it('maps root to an unprivileged uid and keeps the network when asked', () => {
    const mapped = bwrapArgs({ ...layout, network: 'on', user: { kind: 'mapped', uid: 1000, gid: 1000 } }, ['true']);
    expect(mapped.join(' ')).toContain('--unshare-user --uid 1000 --gid 1000');
    expect(mapped).not.toContain('--unshare-net');
  });
});

/** Emits the sandbox and Bash tool modules as plain JS next to the project's node_modules, for a child node process. */
async function transpileTools(dir: string): Promise<void> {
  const modulesOf = async (folder: string) =>
    (await fs.readdir(path.join('src', folder))).map((file) => path.join(folder, path.parse(file).name));
  for (const name of [
    ...(await modulesOf('sandbox')),
    ...(await modulesOf('network')),
    'core/paths',
    'core/schema',
    'tools/builtin/bash',
    'tools/builtin/hook-response',
    'tools/output',
    'tools/tool',
    'tools/tool-error',
    'tools/process',
  ]) {
    const source = await fs.readFile(path.join('src', `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    await fs.mkdir(path.join(dir, path.dirname(name)), { recursive: true });
    await fs.writeFile(path.join(dir, `${name}.js`), outputText);
  }
}

const CHILD_SCRIPT = `
import { prepareSandbox } from './sandbox/index.js';
import { createBashTool } from './tools/builtin/bash.js';
const o = JSON.parse(process.argv[2]);
const sandbox = await prepareSandbox(o.options);
const ctx = { workspace: { root: o.options.workspace }, signal: new AbortController().signal, env: o.options.env, outputLimit: 100000 };
try {
  const reply = await createBashTool({ wrap: sandbox.wrap }).run({ command: o.command, timeout: 8000 }, ctx);
  process.stdout.write(typeof reply === "string" ? reply : reply.text);
} finally {
  await sandbox.dispose();
}
`;

function runNode(script: string, arg: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, arg], { env, timeout: 15_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe('secrets in the environment of the process that runs the tool', () => {
  it('are not readable through /proc inside the sandbox', async () => {
    await fs.mkdir(path.join(process.cwd(), '.tmp'), { recursive: true });
    const dir = await fs.mkdtemp(path.join(process.cwd(), '.tmp', 'sandbox-child-'));
    try {
      await transpileTools(dir);
      await fs.writeFile(path.join(dir, 'child.js'), CHILD_SCRIPT);
      const canary = `canary-parent-env-${process.pid}-7d3b`;
      const command = `cat /proc/$PPID/environ /proc/1/environ; echo; for f in /proc/[0-9]*/environ; do cat "$f"; done 2>/dev/null | tr '\\0' '\\n'`;
      const arg = JSON.stringify({ options: { ...options, processLimit: 512 }, command });
      const output = await runNode(path.join(dir, 'child.js'), arg, { ...process.env, ANTHROPIC_API_KEY: canary });
      expect(output).toContain('GIT_TERMINAL_PROMPT=0');
      if (isolated()) {
        expect(output).not.toContain(canary);
      } else {
        // The reason the sandbox exists: unsandboxed, the parent's environment is one cat away.
        expectFallback();
        expect(output).toContain(canary);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
