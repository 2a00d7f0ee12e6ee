import * as z from './schema.js';

/** One item of the TodoWrite checklist, shown live in the tracking comment. */
export const TodoSchema = z.object({
  content: z.string().check(z.minLength(1)),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.optional(z.string()),
});
export type Todo = z.infer<typeof TodoSchema>;
