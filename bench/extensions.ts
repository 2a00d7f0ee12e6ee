// What MCP servers and subagents add: start-up with two stdio MCP servers against none, and the
// wall time of three subagents started in one turn, each answering after one second.
import { resolve } from 'node:path';
import { runLoop } from '../src/agent/loop.js';
import { UsageMeter } from '../src/agent/meter.js';
import { TASK } from '../src/agent/subagent.js';
import { withSubagents } from '../src/session/subagents.js';
import type { Block, Model, ModelTurn, ToolSet } from '../src/core/index.js';
import { cliStartup, type Comparison } from './startup.js';

const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** First request of the CLI with two stdio servers configured, against the same CLI with none. */
export async function mcpStartup(dir: string, runs: number): Promise<Comparison> {
  const server = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  const config = JSON.stringify({ mcpServers: { one: server, two: server } });
  const without = await cliStartup(dir, runs);
  const withServers = await cliStartup(dir, runs, ['--mcp-config', config]);
  return { baseline: without.subject, subject: withServers.subject };
}

const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
const turn = (content: Block[]): ModelTurn => ({ content, stop: 'end', stopReason: null, usage, costUsd: 0, model: 'bench' });

/** Wall time of one turn that starts three subagents whose model answers after a second each. */
export async function subagentFanOut(): Promise<{ ms: number; subagents: number }> {
  const model: Model = {
    id: 'bench',
    async send(r) {
      if (r.system !== 'parent') {
        await new Promise((done) => setTimeout(done, 1000));
        return turn([{ type: 'text', text: 'done' }]);
      }
      if (r.messages.length > 1) return turn([{ type: 'text', text: 'all done' }]);
      const calls = [1, 2, 3].map((i): Block => ({
        type: 'tool_use',
        id: `t${i}`,
        name: TASK,
        input: { description: `part ${i}`, prompt: 'go', subagent_type: 'general-purpose' },
      }));
      return { ...turn(calls), stop: 'tool_use' };
    },
  };
  const none: ToolSet = { specs: () => [], isReadOnly: () => true, execute: () => Promise.resolve({ content: '', isError: true }) };
  const meter = new UsageMeter();
  const limits = { maxSteps: 20, maxCostUsd: 5, deadline: Infinity };
  const common = { limits, maxTokens: 1000, streamRetries: 0, compactAtTokens: 1e9, meter };
  const types = [{ name: 'general-purpose', description: 'general', prompt: 'You help.', source: 'bench' }];
  const tools = withSubagents(none, { types, model, tools: () => none, ...common });
  const started = performance.now();
  await runLoop({ model, tools, system: 'parent', signal: new AbortController().signal, ...common }, [{ role: 'user', content: 'go' }]);
  return { ms: performance.now() - started, subagents: 3 };
}
