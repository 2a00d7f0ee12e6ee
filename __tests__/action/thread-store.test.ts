import type { ActionIo } from '../../src/action/io.js';
import { STORE_ATTEMPTS, Thread, threadRef } from '../../src/action/thread.js';
import type { Message } from '../../src/core/messages.js';
import { Repo } from '../../src/git/repo.js';
import type { Trigger } from '../../src/github/trigger.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { injectPushFaults, shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

const REF = threadRef(7);
const SECRET = 'ghs_secretSECRETsecret0123456789abcdef';
let fx: ShallowCheckout;
beforeEach(async () => {
  fx = await shallowCheckout();
});
afterEach(() => fx.cleanup());

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const trigger: Trigger = { source: 'comment', task: 'x', requester: null, target: { type: 'pull', number: 7 } };

/** One run's view of the thread of #7, from a checkout of its own; what it logs goes to `log`. */
function thread(run: number, log: string[] = [], slept: number[] = []): Thread {
  const repo = Repo.open(fx.work, { env: fx.env });
  const io = { info: (m: string) => log.push(m) } as Pick<ActionIo, 'info'> as ActionIo;
  return new Thread({
    git: Promise.resolve({ repo, netRepo: repo, seal: () => Promise.resolve() }),
    trigger,
    enabled: true,
    io,
    redactor: new Redactor([SECRET]),
    runUrl: `https://github.com/o/r/actions/runs/${run}`,
    sleep: (ms) => {
      slept.push(ms);
      return Promise.resolve();
    },
  });
}

/** A run's conversation: what it loaded, then its request and answer. */
async function conversation(t: Thread, name: string): Promise<Message[]> {
  const { messages } = await t.earlier;
  return [...messages, user(`request ${name} with ${SECRET}`), assistant(`answer ${name}`)];
}

function stored(): { runs: { url: string }[]; messages: Message[] } {
  return JSON.parse(fx.git(fx.bare, ['cat-file', 'blob', `${REF}:conversation.json`])) as ReturnType<typeof stored>;
}
const texts = () =>
  stored().messages.flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.map((b) => ('text' in b ? b.text : ''))));

describe('storing a thread’s conversation while other runs store theirs', () => {
  it('keeps both runs’ turns after the base they both loaded, once, when the later write loses the compare-and-swap', async () => {
    const first = thread(1);
    await first.save(await conversation(first, 'one'));
    const [a, b] = [thread(2), thread(3)];
    const [forA, forB] = [await conversation(a, 'A'), await conversation(b, 'B')];
    await a.save(forA);
    await b.save(forB);
    expect(texts()).toEqual(['request one with ***', 'answer one', 'request A with ***', 'answer A', 'request B with ***', 'answer B']);
    expect(stored().runs.map((r) => r.url.split('/').pop())).toEqual(['1', '2', '3']);
    expect(fx.git(fx.bare, ['cat-file', 'blob', `${REF}:conversation.json`])).not.toContain(SECRET);
  });

  it('says it read the store again, and three racing writers all end up in it', async () => {
    const logs: string[] = [];
    const runs = [thread(1, logs), thread(2, logs), thread(3, logs)];
    const messages = await Promise.all(runs.map((t, i) => conversation(t, String(i + 1))));
    await Promise.all(runs.map((t, i) => t.save(messages[i]!)));
    expect(logs.join('\n')).toMatch(
      /storing the conversation failed \(.*(stale info|failed to update ref).*\); reading it again and retrying/,
    );
    expect(stored().runs).toHaveLength(3);
    for (const n of ['1', '2', '3']) expect(texts().filter((t) => t === `answer ${n}`)).toHaveLength(1);
  });

  it('stores it after a server failure, once the server answers again', async () => {
    await injectPushFaults(fx.bare, { internalErrors: 1, refs: 'refs/agent-action/' });
    const slept: number[] = [];
    const t = thread(1, [], slept);
    await t.save(await conversation(t, 'one'));
    expect(slept).toHaveLength(1);
    expect(texts()).toContain('answer one');
  });

  it('says what is true when the store cannot be written: it keeps what it held, without this run’s turns', async () => {
    const first = thread(1);
    await first.save(await conversation(first, 'one'));
    await injectPushFaults(fx.bare, { internalErrors: 100, refs: 'refs/agent-action/' });
    const log: string[] = [];
    const slept: number[] = [];
    const t = thread(2, log, slept);
    await t.save(await conversation(t, 'two'));
    expect(slept).toHaveLength(STORE_ATTEMPTS - 1);
    expect(texts()).toEqual(['request one with ***', 'answer one']);
    expect(log.at(-1)).toMatch(
      /^agent-action: the conversation could not be stored in refs\/agent-action\/threads\/7 \(! \[remote rejected\] \w+ -> refs\/agent-action\/threads\/7 \(Internal Server Error\)\); this run's turns are not in it, and the next request here continues from what it holds$/,
    );
    expect(log.join('\n')).not.toContain('starts afresh');
  });
});
