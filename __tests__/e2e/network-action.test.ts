// network: allowlist, the action's default, through the built action (dist/index.js): a command
// reaches an allowed host through the proxy and nothing else; what was refused is named in the
// tracking comment and the job summary; a malformed allowed-domains stops the step at start.
import { jest } from '@jest/globals';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';
import { startLoggingWeb, type LoggingWeb } from '../../test-support/logging-web.js';

jest.setTimeout(90_000);

const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const alice = { login: 'alice', id: 501 };

let world: World | undefined;
let web: LoggingWeb;
let port: number;
let reached: string[];

beforeAll(async () => {
  web = await startLoggingWeb();
  ({ port, reached } = web);
});
afterAll(() => web.close());
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function issueWorld(script: ScriptedReply[]): Promise<World> {
  const w = await makeWorld({ main: { 'README.md': 'x\n' }, script, sim: { permissions: { alice: 'write' } } });
  w.sim.issues.set(3, { number: 3, title: 'Fetch the page', body: '', user: { login: 'bob' }, comments: [] });
  return w;
}

const tracking = (w: World) => w.sim.issues.get(3)!.comments.find((c) => c.body.includes('<!-- agent-action -->'))!.body;

describe('network: allowlist by default (dist/index.js)', () => {
  it('with +localhost: localhost answers through the proxy, 127.0.0.2 is refused, and the comment and summary name it', async () => {
    world = await issueWorld([
      tool('Bash', {
        command: `curl -sS --max-time 5 http://localhost:${port}/allowed > page.txt; curl -sS --max-time 5 http://127.0.0.2:${port}/refused; env | grep -i '^https_proxy='`,
      }),
      text('Fetched.'),
    ]);
    const w = world;
    const payload = commentPayload({ number: 3, body: '/agent fetch the page', by: alice, onPull: false });
    const r = await w.run({ event: 'issue_comment', payload, inputs: { sandbox: 'auto', 'allowed-domains': '+localhost' } });
    if (/WITHOUT a sandbox/.test(tracking(w))) {
      console.log('network-action: bubblewrap unavailable, the allowlist cannot be enforced here');
      expect(tracking(w)).toMatch(/The network is open \(network: allowlist needs the sandbox\)/);
      return;
    }
    expect(r.outputs['conclusion']).toBe('success');
    const result = JSON.stringify(w.model.requests[1]!.body.messages.at(-1)!.content);
    expect(result).toContain('HTTPS_PROXY=http://127.0.0.1:3128');
    expect(reached).toContain('/allowed');
    expect(reached).not.toContain('/refused');
    // What the command fetched is the change the run delivers.
    const branch = w.remoteGit(['for-each-ref', '--format=%(refname:short)', 'refs/heads/agent/']).trim();
    expect(w.remoteGit(['show', `${branch}:page.txt`])).toBe('hello /allowed');
    const note =
      'The network allowlist refused: `127.0.0.2` (1). To allow a host, add it to `allowed-domains` (`+host` keeps the default list).';
    expect(tracking(w)).toContain(note);
    expect(r.summary).toContain(note);
  });

  it('a malformed allowed-domains fails the step at start, naming the input, before any model request', async () => {
    world = await issueWorld([text('never')]);
    const w = world;
    const payload = commentPayload({ number: 3, body: '/agent fetch the page', by: alice, onPull: false });
    const r = await w.run({ event: 'issue_comment', payload, inputs: { 'allowed-domains': '+example.com, other.org' } });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/input allowed-domains: "\+example\.com" extends the default list and "other\.org" replaces it/);
    expect(w.model.requests).toHaveLength(0);
  });
});
