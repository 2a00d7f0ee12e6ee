// The SDK floor: a script that only imports @anthropic-ai/sdk and streams one answer, bundled with
// ncc as dist/ is (bench/startup.ts builds and times it). What any agent on this SDK pays before
// its first request; it ends as the CLI does, writing the answer and exiting.
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({
  apiKey: process.env['ANTHROPIC_API_KEY'] ?? null,
  baseURL: process.env['ANTHROPIC_BASE_URL'] ?? null,
});
const message = await client.messages
  .stream({ model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: process.argv[2] ?? 'say ok' }] })
  .finalMessage();
const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
process.stdout.write(`${text}\n`, () => process.exit(0));
