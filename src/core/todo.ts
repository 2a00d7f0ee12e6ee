import { z } from 'zod';

/** One item of the TodoWrite checklist, shown live in the tracking comment. */
export const TodoSchema = z.object({
  content: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().optional(),
});
export type Todo = z.infer<typeof TodoSchema>;
