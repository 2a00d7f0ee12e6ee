import type { Usage } from '../agent/usage.js';

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatUsd(x: number): string {
  return `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;
}

export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}

/** "12.3k in (10.0k cached), 1.2k out" */
export function formatUsage(u: Usage): string {
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  const cached = u.cache_read_input_tokens > 0 ? ` (${formatTokens(u.cache_read_input_tokens)} cached)` : '';
  return `${formatTokens(prompt)} in${cached}, ${formatTokens(u.output_tokens)} out`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The argument that says what a tool call does, for one line of progress. */
export function keyArgument(tool: string, input: unknown): string {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const pick = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  switch (tool) {
    case 'Read':
    case 'Write':
    case 'Edit':
      return pick('file_path');
    case 'Bash':
      return oneLine(pick('command'), 100);
    case 'Glob':
    case 'Grep':
      return oneLine(pick('pattern') + (pick('path') ? ` in ${pick('path')}` : ''), 100);
    case 'TodoWrite':
      return Array.isArray(fields['todos']) ? `${fields['todos'].length} items` : '';
    default:
      return oneLine(JSON.stringify(input) ?? '', 100);
  }
}
