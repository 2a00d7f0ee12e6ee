import type { LoopEvents } from '../agent/config.js';
import type { Todo } from '../core/todo.js';
import type { ToolCall } from '../core/tools.js';

/** What a task reports as it runs: the loop's events, the checklist and refused calls. */
export interface TaskEvents extends LoopEvents {
  /** The TodoWrite checklist, whole, each time the model changes it. */
  onTodos?: (todos: Todo[]) => void;
  /** A call the rules refused, with the reason the model was given. */
  onRefusal?: (call: ToolCall, reason: string) => void;
}
