import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelRequest } from '../../src/core/index.js';
import { LoopSettingsSchema } from '../../src/config/loop-settings.js';
import { runTask } from '../../src/session/run.js';
import { call, say, ScriptedModel } from '../../test-support/scripted-model.js';

const settings = LoopSettingsSchema.parse({ allowedTools: 'Read' });

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

function task(cwd: string, model: ScriptedModel, ready: Promise<unknown>) {
  const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'read a.txt' }] }];
  return runTask({ settings, model, cwd, env: {}, messages, mode: 'cli', signal: new AbortController().signal, ready });
}

const resultText = (request: ModelRequest | undefined) => JSON.stringify(request?.messages.at(-1)?.content);

describe('runTask with a workspace still being prepared', () => {
  test('sends the first request at once, and runs no tool until the workspace is ready', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-ready-'));
    const ready = deferred();
    let readyAtFirstRequest: boolean | undefined;
    let isReady = false;
    const model = new ScriptedModel([
      () => {
        readyAtFirstRequest = isReady;
        // The checkout lands after the model asked for the file.
        setTimeout(() => {
          writeFileSync(join(cwd, 'a.txt'), 'checked out\n');
          isReady = true;
          ready.resolve();
        }, 50);
        return call('Read', { file_path: join(cwd, 'a.txt') });
      },
      say('done'),
    ]);
    const result = await task(cwd, model, ready.promise);
    expect(readyAtFirstRequest).toBe(false);
    expect(result.conclusion).toBe('success');
    expect(resultText(model.requests[1])).toContain('checked out');
  });

  test('a workspace that never becomes ready fails the run with its error', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-ready-'));
    const ready = deferred();
    const model = new ScriptedModel([
      () => {
        setTimeout(() => ready.reject(new Error('git fetch failed')), 20);
        return call('Read', { file_path: join(cwd, 'a.txt') });
      },
      say('never'),
    ]);
    await expect(task(cwd, model, ready.promise)).rejects.toThrow('git fetch failed');
  });
});
