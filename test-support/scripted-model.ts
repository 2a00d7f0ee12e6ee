import type { Block, Model, ModelRequest, ModelTurn, TurnStop, Usage } from '../src/core/index.js';

/** One scripted answer: the blocks, and optionally the stop, usage and cost (defaults are small). */
export interface ScriptedTurn {
  content: Block[];
  stop?: TurnStop;
  usage?: Partial<Usage>;
  costUsd?: number;
}

export interface ScriptedModelOptions {
  /**
   * Report each tool_use block through onToolUse before answering, as a streaming adapter does:
   * all of them, but the last one of an answer that stops in a way whose calls are not run.
   */
  reportsToolUse?: boolean;
}

/** A Model in memory that answers from a script and records every request, for loop unit tests. */
export class ScriptedModel implements Model {
  readonly id = 'scripted-model';
  readonly requests: ModelRequest[] = [];
  private next = 0;

  constructor(
    private readonly script: readonly (ScriptedTurn | ((request: ModelRequest) => ScriptedTurn))[],
    private readonly options: ScriptedModelOptions = {},
  ) {}

  send(request: ModelRequest): Promise<ModelTurn> {
    // Answered on a later tick, as a real model is; a script that runs out rejects.
    return Promise.resolve().then(() => this.answer(request));
  }

  private answer(request: ModelRequest): ModelTurn {
    this.requests.push({ ...request, messages: structuredClone([...request.messages]), tools: [...request.tools] });
    const entry = this.script[this.next++];
    if (!entry) throw new Error(`the script has no answer for request ${this.next}`);
    const turn = typeof entry === 'function' ? entry(request) : entry;
    request.onConnect?.();
    const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...turn.usage };
    const calls = turn.content.some((b) => b.type === 'tool_use');
    const stop = turn.stop ?? (calls ? 'tool_use' : 'end');
    if (this.options.reportsToolUse) report(turn.content, stop, request);
    return { content: turn.content, stop, stopReason: stop, usage, costUsd: turn.costUsd ?? 0.001, model: this.id };
  }
}

function report(content: readonly Block[], stop: TurnStop, request: ModelRequest): void {
  const whole = stop === 'tool_use' || stop === 'end' ? content : content.slice(0, -1);
  for (const block of whole) if (block.type === 'tool_use') request.onToolUse?.(block);
}

export const say = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });

let ids = 0;
export const call = (name: string, input: unknown, usage?: Partial<Usage>): ScriptedTurn => ({
  content: [{ type: 'tool_use', id: `toolu_${++ids}`, name, input }],
  ...(usage ? { usage } : {}),
});
