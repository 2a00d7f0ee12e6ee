import type { ToolCall, ToolOutcome, ToolSet, ToolSpec } from '../src/core/tools.js';

/** A ToolSet that records what reaches it and answers with a fixed outcome (by default `ran <name>`). */
export class RecordingToolSet implements ToolSet {
  readonly calls: ToolCall[] = [];
  constructor(private readonly answer: (call: ToolCall) => ToolOutcome = (call) => ({ isError: false, content: `ran ${call.name}` })) {}
  specs(): readonly ToolSpec[] {
    return [];
  }
  isReadOnly(): boolean {
    return false;
  }
  execute(call: ToolCall): Promise<ToolOutcome> {
    this.calls.push(call);
    return Promise.resolve(this.answer(call));
  }
}
