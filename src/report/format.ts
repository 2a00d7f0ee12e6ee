import type { Usage } from '../core/usage.js';

/**
 * An integer with thousands separators, `12,345`: as `toLocaleString('en-US')` writes it, without
 * the 10 ms the first call spends loading ICU's number formats.
 */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

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

function tokens(n: number, kind: string): string {
  return `${formatTokens(n)} ${kind} ${n === 1 ? 'token' : 'tokens'}`;
}

/** "12.3k input tokens (10.0k cached), 1.2k output tokens": input is the whole prompt, cached its part read from cache. */
export function formatUsage(u: Usage): string {
  const prompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  const cached = u.cache_read_input_tokens > 0 ? ` (${formatTokens(u.cache_read_input_tokens)} cached)` : '';
  return `${tokens(prompt, 'input')}${cached}, ${tokens(u.output_tokens, 'output')}`;
}

/** Figures of a run, e.g. "7 steps · 12k input tokens (10k cached), 800 output tokens · $0.0421 · 1m02s". */
export function runFigures(r: { steps: number; usage: Usage; costUsd: number; durationMs: number }): string {
  return `${r.steps} ${r.steps === 1 ? 'step' : 'steps'} · ${formatUsage(r.usage)} · ${formatUsd(r.costUsd)} · ${formatDuration(r.durationMs)}`;
}
