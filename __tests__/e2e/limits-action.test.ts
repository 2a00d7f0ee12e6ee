import { jest } from '@jest/globals';
import { schedulePayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';
import type { RecordedRequest, ScriptedReply } from '../../test-support/anthropic-server.js';

jest.setTimeout(60_000);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The main agent's system prompt names agent-action; a subagent's is its type's own. */
const isSubagent = (req: RecordedRequest) => !JSON.stringify(req.body.system ?? '').includes('You are agent-action,');
const tasks = (n: number): ScriptedReply => ({
  content: Array.from({ length: n }, (_, i) => ({
    type: 'tool_use' as const,
    name: 'Task',
    input: { description: `check module ${i}`, prompt: `Check module ${i}.`, subagent_type: 'general-purpose' },
  })),
});
const PLANTED = '::add-mask::x\n::stop-commands::tok123';

describe('the action (dist/index.js) under concurrent subagents and a broken stream', () => {
  it('stops at max-steps with 12 Task calls, two subagents at a time, and logs a garbled event only escaped', async () => {
    world = await makeWorld({
      main: { 'README.md': '# modules\n' },
      sim: { permissions: {} },
      script: (req, index) => {
        if (index === 0) return { kind: 'garbled', content: [{ type: 'text', text: 'hm' }], afterEvents: 3, data: PLANTED };
        if (isSubagent(req)) return { content: [{ type: 'text', text: 'module checked' }], delayMs: 200 };
        return tasks(12);
      },
    });
    const r = await world.run({
      event: 'schedule',
      payload: schedulePayload(),
      inputs: { prompt: 'Check every module.', 'max-steps': '4', 'max-parallel-agents': '2' },
    });

    const answered = world.model.requests.filter((q) => q.reply === 'message');
    expect(answered).toHaveLength(4);
    const subagents = answered.filter(isSubagent);
    expect(subagents).toHaveLength(3);
    // With two slots, the third subagent's request arrives only after one of the first two was answered.
    const [a, b, c] = subagents.map((q) => q);
    expect(c!.receivedAt).toBeGreaterThanOrEqual(Math.min(a!.answeredAt!, b!.answeredAt!));
    expect(r.outputs['conclusion']).toBe('max-steps');
    expect(r.outputs['steps']).toBe('4');
    expect(r.summary).toMatch(/max-steps/);
    // The garbled event reached the log, but never as a workflow command the runner would act on.
    const lines = `${r.stdout}\n${r.stderr}`.split(/\r\n|\r|\n/);
    expect(lines.filter((l) => /^\s*::(add-mask::x|stop-commands::)/.test(l))).toEqual([]);
    expect(r.stdout).toContain('\\::stop-commands::tok123');
    expect(r.stdout).toMatch(/model client error: Could not parse message into JSON/);
  });
});
