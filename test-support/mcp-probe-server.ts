/**
 * The source of a minimal MCP stdio server (newline-delimited JSON-RPC, as the protocol's stdio
 * transport frames it) whose one tool, `show`, answers with what the server process can see: its
 * environment, and the listing (or text) of the path in its PROBE_PATH variable, or the error code.
 */
export const PROBE_SERVER = `import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const probe = (p) => {
  try { return readdirSync(p); } catch (e) {
    if (e.code !== 'ENOTDIR') return String(e.code);
    try { return readFileSync(p, 'utf8'); } catch (f) { return String(f.code); }
  }
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'probe', version: '1' } } });
  else if (m.method === 'tools/list')
    send({ id: m.id, result: { tools: [{ name: 'show', description: 'Shows what the server sees', inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call')
    send({ id: m.id, result: { content: [{ type: 'text', text: JSON.stringify({ env: process.env, probe: probe(process.env.PROBE_PATH) }) }] } });
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;

/** What the probe server's `show` answered, from the tool result the model was sent. */
export function probeAnswer(content: unknown): { env: Record<string, string>; probe: unknown } {
  const blocks = Array.isArray(content) ? (content as { content?: unknown }[]) : [];
  return JSON.parse(String(blocks[0]?.content)) as { env: Record<string, string>; probe: unknown };
}
