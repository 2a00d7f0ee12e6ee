// What the loop tells the model about the run itself, in one place so the wording stays consistent.

export const SUMMARY_REQUEST =
  'The conversation is getting too long for the context window. Write a summary of the work so far for yourself to continue from: ' +
  'what the task is, what you found, what you changed (files and why), what you ran and its results, and what is left to do. ' +
  'Do not call tools; answer with the summary only.';

export const SUMMARY_HEADER = 'Summary of the work so far (older turns were summarised to save context):';

export const CONTEXT_CLEARED = 'The context window filled up; older tool output was cleared. Continue the task.';

export const NOT_RUN = 'Not run: the run was stopped before this call.';

export function droppedCall(tool: string): string {
  return (
    `Your reply hit the output limit (max_tokens) while writing a ${tool} call, so that call was not run. ` +
    'Make it again in smaller pieces (for example several Edit calls instead of one large Write).'
  );
}

export const OUTPUT_LIMIT = 'Your reply hit the output limit (max_tokens). Continue from where it stopped.';

export function repeatedFailure(tool: string, times: number, stopAt: number): string {
  return (
    `\n\nThis exact ${tool} call has now failed the same way ${times} times in a row. Repeating it will not help: ` +
    'read the error, check your assumptions (paths, arguments, file contents) and try a different approach. ' +
    `After ${stopAt} identical failures the run ends.`
  );
}
