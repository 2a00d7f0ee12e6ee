import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop, type LoopConfig, type LoopResult } from '../src/agent/loop.js';
import type { Message } from '../src/core/messages.js';
import type { Model } from '../src/core/model.js';
import type { Price } from '../src/core/usage.js';
import { AnthropicModel } from '../src/model/anthropic/index.js';
import { selectTools } from '../src/tools/builtin/index.js';
import { BUILTIN_TOOL_NAMES } from '../src/tools/catalog.js';
import { toolEnvironment } from '../src/tools/env.js';
import { definitionToolSet } from '../src/tools/tool-set.js';
import { Workspace } from '../src/tools/workspace.js';
import { startAnthropicServer, type AnthropicServer, type Pace, type Script } from './anthropic-server.js';

export const TEST_KEY = 'sk-ant-test-0000';

export interface Harness {
  server: AnthropicServer;
  dir: string;
  workspace: Workspace;
  run(overrides?: HarnessOverrides, messages?: Message[]): Promise<LoopResult>;
  close(): Promise<void>;
}

/** What a test may change: the loop's configuration, the tools' output cap, the model's prices. */
export type HarnessOverrides = Partial<LoopConfig> & { outputLimit?: number; prices?: Readonly<Record<string, Price>> };

/** Every built-in tool in a workspace, as the loop gets them. */
export function builtinTools(workspace: Workspace, outputLimit = 30000): LoopConfig['tools'] {
  return definitionToolSet(selectTools(BUILTIN_TOOL_NAMES), { workspace, env: toolEnvironment(process.env), outputLimit });
}

/** The loop around the given tools with test-sized limits; tests and benchmarks override what they measure. */
export function loopWith(model: Model, tools: LoopConfig['tools'], overrides: Partial<LoopConfig> = {}): LoopConfig {
  return {
    model,
    tools,
    system: 'You are a test agent.',
    limits: { maxSteps: 20, maxCostUsd: 5, deadline: Infinity },
    signal: new AbortController().signal,
    maxTokens: 4096,
    streamRetries: 3,
    compactAtTokens: 150000,
    ...overrides,
  };
}

/** The same with every built-in tool in the workspace. */
export function loopConfig(model: Model, workspace: Workspace, overrides: HarnessOverrides = {}): LoopConfig {
  const { outputLimit, prices: _prices, ...rest } = overrides;
  return loopWith(model, builtinTools(workspace, outputLimit), rest);
}

/** A scripted model server, a temp workspace and the real loop wired to both. */
export async function harness(
  script: Script,
  options: { maxRetries?: number; contextWindow?: number; pace?: Pace } = {},
): Promise<Harness> {
  const server = await startAnthropicServer({
    script,
    requireApiKey: TEST_KEY,
    ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    ...(options.pace ? { pace: options.pace } : {}),
  });
  const dir = await mkdtemp(join(tmpdir(), 'agent-loop-'));
  const workspace = await Workspace.open(dir);
  const modelWith = (prices?: Readonly<Record<string, Price>>) =>
    new AnthropicModel({
      model: 'claude-sonnet-5-5',
      apiKey: TEST_KEY,
      baseURL: server.url,
      maxRetries: options.maxRetries ?? 2,
      ...(prices ? { prices } : {}),
    });
  const model = modelWith();
  return {
    server,
    dir,
    workspace,
    run(overrides = {}, messages = [{ role: 'user', content: 'do the task' }]) {
      return runLoop(
        // Backoff waits are shortened so that retry tests stay fast.
        loopConfig(overrides.prices ? modelWith(overrides.prices) : model, workspace, {
          sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
          ...overrides,
        }),
        messages,
      );
    },
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The tool_result blocks of a recorded request's last message. */
export function lastToolResults(server: AnthropicServer, index: number): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const body = server.requests[index]?.body;
  const last = body?.messages[body.messages.length - 1];
  if (!last || typeof last.content === 'string') return [];
  return last.content.flatMap((b) => {
    if (b.type !== 'tool_result') return [];
    const content = typeof b['content'] === 'string' ? b['content'] : JSON.stringify(b['content']);
    return [{ tool_use_id: String(b['tool_use_id']), content, ...(b['is_error'] === true ? { is_error: true } : {}) }];
  });
}

export function lastUserText(server: AnthropicServer, index: number): string {
  const body = server.requests[index]?.body;
  const last = body?.messages[body.messages.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.flatMap((b) => (b.type === 'text' ? [String(b['text'])] : [])).join('\n');
}
