import * as z from '../../core/schema.js';
import { TodoSchema, type Todo } from '../../core/todo.js';
import { defineTool } from '../tool.js';

const schema = z.object({
  todos: z.array(TodoSchema).check(z.describe('The whole updated checklist; it replaces the previous one.')),
});

const MARKS: Record<Todo['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** The checklist as the model will see it echoed back. */
export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return '(empty checklist)';
  return todos
    .map((todo) => {
      const label = todo.status === 'in_progress' && todo.activeForm ? todo.activeForm : todo.content;
      return `${MARKS[todo.status]} ${label}`;
    })
    .join('\n');
}

function reminder(todos: readonly Todo[]): string {
  const active = todos.filter((todo) => todo.status === 'in_progress').length;
  const open = todos.some((todo) => todo.status !== 'completed');
  if (!open) return 'All items are completed.';
  if (active === 1) return 'Keep exactly one item in_progress while working, and mark it completed as soon as it is done.';
  return `${active} items are in_progress; keep exactly one in_progress while working (mark the one you are doing now).`;
}

export const todoWriteTool = defineTool({
  name: 'TodoWrite',
  description:
    'Creates or updates the task checklist shown live to the people following the run. Use it for work ' +
    'with several steps: send the whole list each time, with exactly one item in_progress while working ' +
    '(activeForm is its present-tense label, e.g. "Running the tests"), and mark items completed as soon ' +
    'as they are done.',
  schema,
  // No file effects, but the list must follow the order of the calls that change it.
  readOnly: false,
  keyArgument: 'todos',
  run(input, ctx) {
    ctx.onTodos?.(input.todos);
    return Promise.resolve(`Checklist updated:\n${renderTodos(input.todos)}\n\n${reminder(input.todos)}`);
  },
});
