import type { TaskEvents } from '../session/run.js';
import type { Usage } from '../core/usage.js';
import { outcomeText } from '../core/tools.js';
import { formatDuration, runFigures } from '../report/format.js';
import { describeToolCall } from '../tools/catalog.js';

export interface ProgressWriter {
  write(text: string): void;
}

/**
 * Progress on stderr: streamed text as it comes, one line per tool call with its key argument,
 * and notices. Text and tool lines never share a line. Lines that come together (the tool calls
 * of one answer) go out in one write.
 */
export function progressEvents(out: ProgressWriter, options: { quiet: boolean }): TaskEvents {
  let midLine = false;
  /** Tool lines not written yet: those of one answer go out together, before anything else is written. */
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    out.write(text);
  };
  const line = (text: string, batched = false) => {
    if (batched && pending === '') setImmediate(flush);
    if (midLine) pending += '\n';
    midLine = false;
    pending += text + '\n';
    if (!batched) flush();
  };
  return {
    onText(delta) {
      if (options.quiet || delta === '') return;
      flush();
      out.write(delta);
      midLine = !delta.endsWith('\n');
    },
    onToolStart(call) {
      line(`→ ${call.name} ${describeToolCall(call.name, call.input)}`.trimEnd(), true);
    },
    onToolEnd(call, outcome, ms) {
      if (outcome.isError)
        line(`  ✗ ${call.name} failed (${formatDuration(ms)}): ${outcomeText(outcome).split('\n')[0]?.slice(0, 160) ?? ''}`);
    },
    onNotice(message) {
      line(`! ${message}`);
    },
    onStep() {
      if (midLine) line('');
      flush();
    },
  };
}

/** The closing line: how the run ended and its figures. */
export function summaryLine(r: {
  conclusion: string;
  reason: string;
  steps: number;
  usage: Usage;
  costUsd: number;
  durationMs: number;
}): string {
  return `${r.conclusion}${r.reason ? ` (${r.reason})` : ''} · ${runFigures(r)}`;
}
