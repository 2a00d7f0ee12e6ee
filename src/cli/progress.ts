import type { LoopEvents } from '../agent/loop.js';
import type { Usage } from '../agent/usage.js';
import { formatDuration, formatUsage, formatUsd, keyArgument } from '../report/format.js';

export interface ProgressWriter {
  write(text: string): void;
}

/**
 * Progress on stderr: streamed text as it comes, one line per tool call with its key argument,
 * and notices. Text and tool lines never share a line.
 */
export function progressEvents(out: ProgressWriter, options: { quiet: boolean }): LoopEvents {
  let midLine = false;
  const line = (text: string) => {
    if (midLine) out.write('\n');
    midLine = false;
    out.write(text + '\n');
  };
  return {
    onText(delta) {
      if (options.quiet || delta === '') return;
      out.write(delta);
      midLine = !delta.endsWith('\n');
    },
    onToolStart(call) {
      line(`→ ${call.name} ${keyArgument(call.name, call.input)}`.trimEnd());
    },
    onToolEnd(call, result, ms) {
      if (result.isError) line(`  ✗ ${call.name} failed (${formatDuration(ms)}): ${result.content.split('\n')[0]?.slice(0, 160) ?? ''}`);
    },
    onNotice(message) {
      line(`! ${message}`);
    },
    onStep() {
      if (midLine) line('');
    },
  };
}

export function summaryLine(r: { conclusion: string; reason: string; steps: number; usage: Usage; costUsd: number; durationMs: number }): string {
  const why = r.reason ? ` (${r.reason})` : '';
  return `${r.conclusion}${why} · ${r.steps} steps · ${formatUsage(r.usage)} · ${formatUsd(r.costUsd)} · ${formatDuration(r.durationMs)}`;
}
