import { BOT_IDENTITY } from '../../src/git/names.js';
import { Repo } from '../../src/git/repo.js';
import { shallowCheckout, type ShallowCheckout } from '../../test-support/git-remote.js';

const REF = 'refs/agent-action/threads/12';
let fx: ShallowCheckout;
beforeEach(async () => {
  fx = await shallowCheckout();
});
afterEach(() => fx.cleanup());

const store = () => Repo.open(fx.work, { env: fx.env }).refStore();
const write = (text: string, expected: string | null) =>
  store().write(REF, 'conversation.json', text, { expected, message: 'the conversation', identity: BOT_IDENTITY });

describe('a file in a hidden ref of origin', () => {
  it('reads nothing before the first write, then what was written, from a fresh checkout too', async () => {
    expect(await store().read(REF, 'conversation.json', 1000)).toEqual({ missing: 'none' });
    const sha = await write('{"a":1}', null);
    expect(fx.git(fx.bare, ['rev-parse', REF]).trim()).toBe(sha);
    expect(fx.git(fx.bare, ['for-each-ref', '--format=%(refname)', 'refs/heads/']).trim()).not.toContain('agent-action');
    const other = await shallowCheckout();
    try {
      other.git(other.work, ['remote', 'set-url', 'origin', `file://${fx.bare}`]);
      const read = await Repo.open(other.work, { env: other.env }).refStore().read(REF, 'conversation.json', 1000);
      expect(read).toEqual({ sha, text: '{"a":1}' });
    } finally {
      await other.cleanup();
    }
  });

  it('replaces the file only while the ref is where it was read', async () => {
    const first = await write('one', null);
    await expect(write('two', null)).rejects.toThrow(/stale info|rejected/);
    const second = await write('two', first);
    await expect(write('three', first)).rejects.toThrow(/stale info|rejected/);
    expect(await store().read(REF, 'conversation.json', 1000)).toEqual({ sha: second, text: 'two' });
    // Each write is a commit of its own: the old one is not kept in the ref's history.
    expect(fx.git(fx.bare, ['rev-list', '--count', REF]).trim()).toBe('1');
  });

  it('says how large a file over the limit is, without reading it', async () => {
    await write('x'.repeat(5000), null);
    expect(await store().read(REF, 'conversation.json', 1000)).toEqual({ missing: 'too-large', bytes: 5000 });
  });

  it('refuses refs outside its own namespace and odd file names', async () => {
    await expect(store().read('refs/heads/main', 'f', 10)).rejects.toThrow(/invalid ref/);
    await expect(store().read('refs/agent-action/../heads/main', 'f', 10)).rejects.toThrow(/invalid ref/);
    await expect(store().read(REF, '../x', 10)).rejects.toThrow(/invalid file name/);
  });
});
