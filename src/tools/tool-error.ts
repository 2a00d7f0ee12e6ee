/** A failure whose message is written for the model: what went wrong and what to do instead. */
export class ToolError extends Error {
  override name = 'ToolError';
}
