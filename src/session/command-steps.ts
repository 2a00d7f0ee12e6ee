/**
 * What a command runs and reads before the model sees it, as in Claude Code: each
 * `` !`command` `` of its body runs as a Bash call and its output takes the step's place in the
 * task; each `@path` is read as a Read call (a folder listed with Glob) and attached after it.
 * The calls go through the run's whole tool stack, so the rules (the command's `allowed-tools`
 * included), the hooks, the sandbox and the redaction hold for them as for the model's own calls.
 */
import { isAbsolute, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { outcomeText, type ToolSet } from '../core/tools.js';
import type { Message } from '../core/messages.js';
import { escapeFences, quoteUntrusted } from '../untrusted/fence.js';
import type { ExpandedCommand } from '../extensions/index.js';

export type CommandSteps = Pick<ExpandedCommand, 'shell' | 'files'>;

/** A step that was refused or failed: the command does not run, as in Claude Code. */
export class CommandStepError extends Error {}

const NO_OUTPUT = '(no output)';

async function kindOf(path: string): Promise<'file' | 'folder' | null> {
  const found = await stat(path).catch(() => null);
  if (!found) return null;
  return found.isDirectory() ? 'folder' : 'file';
}

/** Runs the steps and writes their results into the last user message of `messages` (changed in place). */
export async function runCommandSteps(
  steps: CommandSteps,
  tools: ToolSet,
  root: string,
  messages: Message[],
  signal: AbortSignal,
  notice?: (message: string) => void,
): Promise<void> {
  const last = messages.findLast((m) => m.role === 'user');
  if (!last) return;
  const content = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  const at = content.findIndex((b) => b.type === 'text');
  const block = content[at];
  if (!block || block.type !== 'text') return;
  let text = block.text;
  for (const [i, step] of steps.shell.entries()) {
    const outcome = await tools.execute(
      { id: `command_step_${i + 1}`, name: 'Bash', input: { command: step.command, description: 'a step of the command' } },
      signal,
    );
    const output = outcomeText(outcome).trim();
    if (outcome.isError || outcome.failure !== undefined) {
      throw new CommandStepError(
        `the command's step !\`${step.command}\` ${outcome.isError ? 'was not run' : 'failed'}: ${output.slice(0, 500)}`,
      );
    }
    text = text.replace(step.slot, () => escapeFences(output || NO_OUTPUT));
  }
  const attached: string[] = [];
  for (const [i, path] of steps.files.entries()) {
    const full = isAbsolute(path) ? path : resolve(root, path);
    const kind = await kindOf(full);
    // A reference to nothing is prose (`@someone`), left as written.
    if (!kind) continue;
    const call =
      kind === 'file'
        ? { id: `command_file_${i + 1}`, name: 'Read', input: { file_path: full } }
        : { id: `command_file_${i + 1}`, name: 'Glob', input: { pattern: '*', path: full } };
    const outcome = await tools.execute(call, signal);
    if (outcome.isError) {
      notice?.(`the command's @${path} was not attached: ${outcomeText(outcome).slice(0, 300)}`);
      continue;
    }
    attached.push(
      `${kind === 'file' ? 'The file' : 'The folder'} @${path}, as ${call.name} gave it:\n${quoteUntrusted('file', outcomeText(outcome))}`,
    );
  }
  if (attached.length > 0) text = `${text}\n\n${attached.join('\n\n')}`;
  // A new content list: the caller's message stays as it was.
  last.content = content.map((b, i) => (i === at ? { ...block, text } : b));
}
