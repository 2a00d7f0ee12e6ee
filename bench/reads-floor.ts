// The floor of a turn of Reads on the bare SDK: stream the answer with the SDK's own MessageStream,
// read each file asked for whole (no numbering, no checks), send the contents back, until the model
// answers with text. What any agent on this SDK pays to carry the results; bench/reads.ts times it
// beside the CLI, on the same fake server and files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({
  apiKey: process.env['ANTHROPIC_API_KEY'] ?? null,
  baseURL: process.env['ANTHROPIC_BASE_URL'] ?? null,
});
const dir = process.argv[2] ?? '.';
const tools: Anthropic.Tool[] = [
  { name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  { name: 'TodoWrite', description: 'Keeps a list', input_schema: { type: 'object', properties: { todos: { type: 'array' } } } },
];
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: process.argv[3] ?? 'read them' }];
for (;;) {
  const message = await client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 8192, tools, messages }).finalMessage();
  const calls = message.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
  if (calls.length === 0) break;
  const results = calls.map((call): Anthropic.ToolResultBlockParam => {
    const input = call.input as { file_path?: string };
    const content = call.name === 'Read' && input.file_path ? readFileSync(join(dir, input.file_path), 'utf8') : 'ok';
    return { type: 'tool_result', tool_use_id: call.id, content };
  });
  messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: results });
}
process.exit(0);
