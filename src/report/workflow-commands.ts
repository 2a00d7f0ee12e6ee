/**
 * The runner acts on a line whose text, after leading whitespace (.NET `TrimStart`, so any Unicode
 * space), starts with `::`, and on `##[command]` anywhere in a line (actions/runner
 * ActionCommand.TryParseV2 / TryParse). Lines end at `\n`, `\r` or `\r\n`.
 */
const V2_COMMAND_LINE = /^([\s\u0085]*)::/;
const V1_COMMAND = /##\[/g;

function neutralizeLine(line: string): string {
  // A backslash is not whitespace, so the trimmed line no longer starts with `::`; the text stays readable.
  return line.replace(V2_COMMAND_LINE, '$1\\::').replace(V1_COMMAND, '##\\[');
}

/** Makes model or tool text safe to print to the Actions log: it can no longer be a workflow command. */
export function neutralizeWorkflowCommands(text: string): string {
  return text
    .split(/(\r\n|\r|\n)/)
    .map((part, index) => (index % 2 === 0 ? neutralizeLine(part) : part))
    .join('');
}
