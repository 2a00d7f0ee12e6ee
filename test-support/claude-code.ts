// The pinned Claude Code CLI (devDependency @anthropic-ai/claude-code), run headless the way the
// conformance tests compare it with agent-action: fresh HOME, the project trusted, offline but for
// the scripted model server.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ProcessResult } from './cli-process.js';

/** The native binary: the platform package's, or the copy the main package's install step made. */
export function claudeCodeBinary(): string {
  const candidates = [
    resolve(`node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`),
    resolve('node_modules/@anthropic-ai/claude-code/bin/claude.exe'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`the Claude Code CLI is not installed (looked for ${candidates.join(', ')}): run npm ci`);
  return found;
}

/**
 * What Claude Code needs in a fresh HOME to run headless on repo: onboarding done, and the
 * project trusted, without which it ignores the project's allow rules and MCP servers.
 */
export async function trustProject(home: string, repo: string): Promise<void> {
  const config = { hasCompletedOnboarding: true, projects: { [repo]: { hasTrustDialogAccepted: true, allowedTools: [] } } };
  await writeFile(join(home, '.claude.json'), JSON.stringify(config));
}

/** Variables that keep Claude Code from reaching anything but ANTHROPIC_BASE_URL. */
export const CLAUDE_CODE_OFFLINE: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

/** Runs `claude ...args` in cwd; killed after timeoutMs (its result then says so in stderr). */
export function runClaudeCode(args: string[], env: Record<string, string>, cwd: string, timeoutMs = 60_000): Promise<ProcessResult> {
  return new Promise((resolveRun) => {
    const child = spawn(claudeCodeBinary(), args, { cwd, env: { ...CLAUDE_CODE_OFFLINE, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}
