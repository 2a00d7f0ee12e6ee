// One-step CLI runs on each provider's fake, start to exit: what choosing a provider costs, with
// only that provider's client loaded.
import { resolve } from 'node:path';
import { startAnthropicServer } from '../test-support/anthropic-server.js';
import { startBedrockServer } from '../test-support/bedrock-server.js';
import { startOpenAIServer } from '../test-support/openai-server.js';
import { cleanEnv, median, timeProcess } from './stats.js';

const CLI = resolve('dist/cli/index.js');

async function times(dir: string, runs: number, env: Record<string, string>, args: string[] = []): Promise<number> {
  const all: number[] = [];
  for (let i = 0; i < runs; i++) all.push(await timeProcess([CLI, '--cwd', dir, ...args, 'say ok'], cleanEnv(env)));
  return median(all);
}

/** Median start-to-exit of a one-step run per provider. */
export async function providerRuns(dir: string, runs: number): Promise<Record<string, number>> {
  const answer = () => ({ content: [{ type: 'text' as const, text: 'ok' }] });
  const anthropic = await startAnthropicServer({ requireApiKey: 'sk-ant-bench', script: answer });
  const credentials = { accessKeyId: 'AKIAEXAMPLEBENCH0002', secretAccessKey: 'bench-secret-0123456789abcdef' };
  const bedrock = await startBedrockServer({ region: 'us-east-1', credentials, script: answer });
  const openai = await startOpenAIServer({ requireApiKey: 'sk-bench', script: () => ({ text: 'ok' }) });
  try {
    const aws = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey };
    return {
      anthropic: await times(dir, runs, { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: anthropic.url }),
      bedrock: await times(dir, runs, { ...aws, ANTHROPIC_BEDROCK_BASE_URL: bedrock.url, CLAUDE_CODE_USE_BEDROCK: '1' }),
      openai: await times(dir, runs, { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: openai.url }, ['--provider', 'openai']),
    };
  } finally {
    await Promise.all([anthropic.close(), bedrock.close(), openai.close()]);
  }
}
