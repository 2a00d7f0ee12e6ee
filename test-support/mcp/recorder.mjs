#!/usr/bin/env node
/**
 * A real MCP server over stdio (the SDK's own Server and transport) with one tool, `touch`, that
 * appends each call's `name` to the file named by the RECORD environment variable (given in the
 * server's configured env). A test reads that file to see whether a call reached the server.
 */
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const record = process.env.RECORD;
if (!record) throw new Error('RECORD must name the file calls are recorded in');

const server = new Server({ name: 'recorder', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'touch',
      description: 'Records a call under the given name.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = String(request.params.arguments?.name ?? '');
  appendFileSync(record, `${request.params.name} ${name}\n`);
  return { content: [{ type: 'text', text: `recorded ${name}` }] };
});
await server.connect(new StdioServerTransport());
