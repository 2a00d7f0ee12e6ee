import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLI = resolve('dist/cli/index.js');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A HOME of its own, so this machine's git config and credentials cannot make a test pass. */
export async function cleanHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'agent-home-'));
  return home;
}

/** The environment a child gets: PATH and a clean HOME, nothing else from this process. */
export function childEnv(home: string, extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...extra };
}

export function git(cwd: string, args: string[], env: Record<string, string>): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8' });
}

/** A repository as a developer would have it: files committed on main, clean tree. */
export async function makeRepo(files: Record<string, string>, home: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-repo-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const env = childEnv(home, {});
  git(dir, ['init', '-q', '--initial-branch=main'], env);
  git(dir, ['add', '-A'], env);
  git(dir, ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-qm', 'initial'], env);
  return dir;
}

export function startCli(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): { child: ChildProcess; done: Promise<ProcessResult>; stderrSoFar(): string } {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd: cwd ?? process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<ProcessResult>((resolveDone) => child.on('close', (code) => resolveDone({ code, stdout, stderr })));
  return { child, done, stderrSoFar: () => stderr };
}

export function runCli(args: string[], env: Record<string, string>, cwd?: string): Promise<ProcessResult> {
  return startCli(args, env, cwd).done;
}
