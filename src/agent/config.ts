import type { Model } from '../core/model.js';
import type { Message } from '../core/messages.js';
import type { ToolCall, ToolOutcome, ToolSet } from '../core/tools.js';
import type { Usage } from '../core/usage.js';
import type { Conclusion, Limits, Stop, StopCondition } from './limits.js';
import type { Sleep } from './timing.js';
import type { UsageMeter } from './meter.js';
import type { TranscriptWriter } from './transcript.js';

/** Progress as it happens, for the CLI's stderr and the action's tracking comment. */
export interface LoopEvents {
  onText?: (delta: string) => void;
  onToolStart?: (call: ToolCall) => void;
  onToolEnd?: (call: ToolCall, outcome: ToolOutcome, ms: number) => void;
  onStep?: (info: { step: number; usage: Usage; costUsd: number; totalCostUsd: number; stopReason: string | null }) => void;
  /** Retries, compaction and other things worth a line in the log. */
  onNotice?: (message: string) => void;
}

/** Points where the run's hooks may step in; each may take its time (it runs a command). */
export interface LoopHooks {
  /** The model is done: text sends it on with that text, a Stop ends the run so, null lets it finish. */
  onEnd?: (finalText: string, again: boolean, signal: AbortSignal) => Promise<string | Stop | null>;
  /** Before older turns are compacted. */
  beforeCompact?: (signal: AbortSignal) => Promise<void>;
}

export interface LoopConfig {
  model: Model;
  /** The tools offered and run; their specs are read again before every call. */
  tools: ToolSet;
  /** With the tools' specs, the start of the cached prefix: it never changes during a run. */
  system: string;
  limits: Limits;
  signal: AbortSignal;
  /** max_tokens of each model call. */
  maxTokens: number;
  /** Retries of a stream that broke after it began (HTTP errors are the model client's to retry). */
  streamRetries: number;
  /** Prompt size in tokens past which older tool output is cleared. */
  compactAtTokens: number;
  transcript?: Pick<TranscriptWriter, 'path' | 'write'> & Partial<Pick<TranscriptWriter, 'writeSoon'>>;
  events?: LoopEvents;
  hooks?: LoopHooks;
  /** Totals to add to; a subagent gets its parent's, so the limits hold for both together. */
  meter?: UsageMeter;
  /** Checked with the limits before every model call (a hook that asked to end the run, say). */
  stops?: StopCondition[];
  clock?: () => number;
  sleep?: Sleep;
}

export interface LoopResult {
  conclusion: Conclusion;
  /** Why the run ended, in words; empty on success. */
  reason: string;
  /** The model's final text (on success), or its latest text otherwise. */
  result: string;
  steps: number;
  usage: Usage;
  costUsd: number;
  lastPromptTokens: number;
  messages: Message[];
}

/** How one turn of the loop ended: on to the next request, the same assistant turn extended, or a stop. */
export type TurnOutcome = 'next' | 'continue-turn' | { stop: Stop; result?: string };
