import { TOOL_SPECS } from './specs.generated.js';

/** What the model is told about a tool: enough for a request without loading the tool itself. */
export interface ToolSpec {
  name: string;
  description: string;
  readOnly: boolean;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** The specs of the named tools, in contract order; an unknown name is a configuration error. */
export function specsFor(names: readonly string[]): ToolSpec[] {
  const unknown = names.filter((n) => !TOOL_SPECS.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new Error(`Unknown tool name(s): ${unknown.join(', ')}. Available tools: ${TOOL_SPECS.map((s) => s.name).join(', ')}.`);
  }
  return TOOL_SPECS.filter((s) => names.includes(s.name));
}
