import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO } from '../../test-support/action-world.js';
import { startAnthropicServer, type AnthropicServer, type ScriptedReply } from '../../test-support/anthropic-server.js';
import { childEnv, cleanHome, makeRepo, runCli } from '../../test-support/cli-process.js';
import { FAILING_CALC } from '../../test-support/calc-repo.js';

jest.setTimeout(60_000);

const KEY = 'sk-ant-canary-verify-99';
let server: AnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FILES = FAILING_CALC;
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const FIX = tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' });

describe('verify (dist/)', () => {
  it('sends the model back when the check fails, and ends verified once it passes', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [text('Done, I think.'), FIX, text('Now it is done.')] });
    const home = await cleanHome();
    const repo = await makeRepo(FILES, home);
    const r = await runCli(
      ['--cwd', repo, '--json', '--verify', 'node --test', 'fix it'],
      childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'success', verified: true, steps: 3 });
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1)!.content)).toMatch(
      /verify command `node --test` failed \(exit code 1\)[\s\S]*fail 1/,
    );
  });

  it('ends unverified when the check never passes, within verify-attempts, with the work kept', async () => {
    server = await startAnthropicServer({ requireApiKey: KEY, script: [FIX, text('Done.'), text('Still done.')] });
    const home = await cleanHome();
    const repo = await makeRepo(FILES, home);
    const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    const r = await runCli(['--cwd', repo, '--json', '--verify', 'exit 3', '--verify-attempts', '2', 'fix it'], env);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ conclusion: 'unverified', verified: false, changed_files: ['math.js'] });
    expect(readFileSync(join(repo, 'math.js'), 'utf8')).toContain('return a + b;');
    expect(server.requests).toHaveLength(3);
  });

  describe('a verify command that misbehaves is bounded like Bash, and the work is kept', () => {
    const run = async (verify: string, extra: string[]) => {
      server = await startAnthropicServer({ requireApiKey: KEY, script: [FIX, text('Done.'), text('Still done.')] });
      const home = await cleanHome();
      const repo = await makeRepo(FILES, home);
      const env = childEnv(home, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
      const r = await runCli(['--cwd', repo, '--json', '--verify', verify, ...extra, 'fix it'], env);
      expect(r.code).toBe(1);
      expect(readFileSync(join(repo, 'math.js'), 'utf8')).toContain('return a + b;');
      return { r, out: JSON.parse(r.stdout) as Record<string, unknown>, requests: server.requests };
    };

    it('one that hangs ends at the deadline as unverified', async () => {
      const { out } = await run('sleep 600', ['--timeout-minutes', '0.05']);
      expect(out).toMatchObject({ conclusion: 'unverified', verified: false, changed_files: ['math.js'] });
      expect(out['reason']).toMatch(/did not finish before the run's deadline/);
    });

    it('one that waits for stdin gets none, and fails', async () => {
      const { out } = await run('read answer; test "$answer" = yes', ['--verify-attempts', '1']);
      expect(out).toMatchObject({ conclusion: 'unverified', verified: false });
    });

    it('one that prints 50 MB sends the model only the end of it', async () => {
      const { out, requests } = await run('head -c 52428800 /dev/zero | tr "\\0" x; exit 1', ['--verify-attempts', '2']);
      expect(out).toMatchObject({ conclusion: 'unverified', verified: false });
      expect(requests).toHaveLength(3);
      expect(requests[2]!.bytes).toBeLessThan(64 * 1024);
      expect(JSON.stringify(requests[2]!.body.messages.at(-1))).toMatch(/failed \(exit code 1\)[\s\S]*xxxx/);
    });
  });

  it('says verified in the comment, the summary and the verified output of the action', async () => {
    const w = await makeWorld({
      main: FILES,
      branches: { fix: { 'notes.md': 'x\n' } },
      script: [FIX, text('Fixed.')],
      sim: { permissions: { alice: 'write' } },
    });
    try {
      const headSha = w.remoteGit(['rev-parse', 'fix']).trim();
      const pull = { headRef: 'fix', headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files: [], diff: '' };
      w.sim.issues.set(7, { number: 7, title: 'x', body: '', user: { login: 'bob' }, comments: [], pull });
      const payload = commentPayload({ number: 7, body: '/agent fix the test', by: { login: 'alice', id: 501 }, onPull: true });
      const r = await w.run({ event: 'issue_comment', payload, inputs: { verify: 'node --test', sandbox: 'off' } });
      expect(r.outputs['conclusion']).toBe('success');
      expect(r.outputs['verified']).toBe('true');
      const comment = w.sim.issues.get(7)!.comments.find((c) => c.body.includes('<!-- agent-action -->'))!;
      expect(comment.body).toContain('✅ **Verified** by `node --test`');
      expect(r.summary).toContain('✅ **Verified** by `node --test`');
    } finally {
      await w.close();
    }
  });
});
