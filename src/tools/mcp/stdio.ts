/**
 * The stdio transport, run in a process group of its own. Servers are often started through
 * wrappers (`npx`, `uvx`, `sh -c`, `docker run`) whose children would outlive a signal sent to the
 * wrapper alone; the SDK's transport signals only the process it spawned. Here the whole group is
 * ended: stdin closed first (the MCP way to ask a server to exit), then SIGTERM, then SIGKILL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CappedCollector } from '../output.js';

export interface StdioParams {
  command: string;
  args: readonly string[];
  /** The whole environment of the server: nothing is inherited besides it. */
  env: Record<string, string>;
  cwd?: string | undefined;
}

/** Windows has no process groups to signal; there only the spawned process is ended. */
const USE_GROUPS = process.platform !== 'win32';
const EXIT_GRACE_MS = 500;
const TERM_GRACE_MS = 2000;
const STDERR_LIMIT = 2000;

// Groups still running, for the exit hook: a run that ends without close() must not leave servers behind.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(USE_GROUPS ? -pid : pid, signal);
  } catch {
    // ESRCH: the group is already gone, which is what was wanted.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: a signal is all that can be sent.
  process.on('exit', () => {
    for (const pid of liveGroups) signalGroup(pid, 'SIGTERM');
  });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(USE_GROUPS ? -pid : pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, only not ours to signal. Duck-typed, as errors may come from another realm.
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM';
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The tail of the server's stderr, for failure reports. */
  readonly stderr = new CappedCollector(STDERR_LIMIT);
  /** How the process ended (`exited with code 1`), once it has. */
  exitDescription: string | undefined;
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly buffer = new ReadBuffer();
  private closing: Promise<void> | undefined;

  constructor(private readonly params: StdioParams) {}

  /** The process id, which is also the process group id; undefined before start. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupTransport already started');
    const { command, args, env, cwd } = this.params;
    const child = spawn(command, [...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: USE_GROUPS, windowsHide: true });
    this.child = child;
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    // EPIPE after the server died: reported through exit/close, not worth a crash.
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.on('exit', (code, signal) => {
      this.exitDescription = signal ? `killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
    });
    child.on('close', () => {
      if (child.pid !== undefined) liveGroups.delete(child.pid);
      this.onclose?.();
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new Error(`cannot start ${JSON.stringify(command)}: ${error.message}`)));
    });
    child.on('error', (error) => this.onerror?.(error));
    if (child.pid !== undefined) liveGroups.add(child.pid);
    installExitHook();
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a server logging to stdout): dropped, the stream goes on.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable || this.closing) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server and every process of its group; idempotent. */
  close(): Promise<void> {
    this.closing ??= this.child ? this.terminate(this.child) : Promise.resolve();
    return this.closing;
  }

  private async terminate(child: ChildProcessWithoutNullStreams): Promise<void> {
    const pid = child.pid;
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    this.buffer.clear();
    child.stdin.end();
    // No pid: the command never started, so there is nothing to end.
    if (pid === undefined) return;
    await waitUntil(exited, EXIT_GRACE_MS);
    // Even after the leader exited, its children (npx's server) may still run in the group.
    signalGroup(pid, 'SIGTERM');
    if (!(await waitUntil(() => exited() && !groupAlive(pid), TERM_GRACE_MS))) {
      signalGroup(pid, 'SIGKILL');
      await waitUntil(() => !groupAlive(pid), EXIT_GRACE_MS);
    }
    liveGroups.delete(pid);
    await waitUntil(() => child.stdout.destroyed || child.stdout.readableEnded, TERM_GRACE_MS);
  }
}
