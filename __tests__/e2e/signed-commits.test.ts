import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { commentPayload } from '../../test-support/action-payloads.js';
import { makeWorld, OWNER, REPO, type World } from '../../test-support/action-world.js';
import type { ScriptedReply } from '../../test-support/anthropic-server.js';
import type { SimIssue } from '../../test-support/github-sim.js';
import { runGit } from '../../test-support/git-remote.js';

jest.setTimeout(120_000);

const MAIN = {
  'math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'old-name.txt': 'a file that moves\n',
  'gone.txt': 'a file that goes\n',
  'tool.sh': '#!/bin/sh\necho tool\n',
};
const alice = { login: 'alice', id: 501 };
const tool = (name: string, input: unknown): ScriptedReply => ({ content: [{ type: 'tool_use', name, input }] });
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });
const FIX: ScriptedReply[] = [
  tool('Edit', { file_path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }),
  text('Fixed `add()`: it subtracted.'),
];
const SIGNED = { 'commit-signing': 'true' };

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function pull(number: number, branch: string, headSha: string): SimIssue {
  const files = [{ filename: 'notes.md', status: 'added' as const, additions: 1, deletions: 0 }];
  const at = { headRef: branch, headSha, headRepoFullName: `${OWNER}/${REPO}`, baseRef: 'main', files, diff: '' };
  return { number, title: `Work on ${branch}`, body: '', user: { login: 'bob' }, comments: [], pull: at };
}

async function pullWorld(script: ScriptedReply[] = FIX): Promise<World> {
  const w = await makeWorld({
    main: MAIN,
    executable: ['tool.sh'],
    branches: { 'pr-7': { 'notes.md': 'wip\n' } },
    script,
    sim: { permissions: { alice: 'write' } },
  });
  w.sim.issues.set(7, pull(7, 'pr-7', w.remoteGit(['rev-parse', 'pr-7']).trim()));
  return w;
}

function askOnPull(w: World, body = '/agent fix add()') {
  const payload = commentPayload({ number: 7, body, by: alice, onPull: true, commentId: 930_001 });
  const c = payload.comment;
  w.sim.issues.get(7)!.comments.push({ id: c.id, body, user: { login: 'alice' }, created_at: c.created_at, updated_at: c.updated_at });
  return payload;
}

const git = (w: World, cwd: string, args: string[]) => runGit(cwd, args, { PATH: process.env['PATH'] ?? '', HOME: w.home });
const calls = (w: World) => w.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
const gitCalls = (w: World) => w.sim.requests.filter((r) => r.path.includes('/git/'));
const finalComment = (w: World, n: number) =>
  (w.sim.issues.get(n)?.comments ?? []).filter((c) => c.body.includes('<!-- agent-action')).at(-1)?.body ?? '';

describe('commit-signing: commits made by GitHub through the Git Data API (dist/)', () => {
  it('a pull request fix: one verified commit on the branch, no author in the request, the workspace on it', async () => {
    world = await pullWorld();
    const w = world;
    const before = w.remoteGit(['rev-parse', 'pr-7']).trim();
    const workspace = w.checkout();
    const r = await w.run({ event: 'issue_comment', payload: askOnPull(w), inputs: SIGNED, workspace });
    if (process.env['AGENT_NOTE_DIR']) writeFileSync(`${process.env['AGENT_NOTE_DIR']}/signed-pr-calls.txt`, calls(w).join('\n') + '\n');
    expect(r.outputs['conclusion']).toBe('success');
    expect(w.sim.schemaErrors).toEqual([]);
    // Text goes inside the tree request: a tree, a commit, a fast-forward; never a forced update.
    const made = gitCalls(w).map((q) => `${q.method} ${q.path.replace(/^\/repos\/octo-org\/calc/, '')} ${q.status}`);
    expect(made).toEqual(['POST /git/trees 201', 'POST /git/commits 201', 'PATCH /git/refs/heads%2Fpr-7 200']);
    const commitRequest = gitCalls(w).find((q) => q.path.endsWith('/git/commits'))!.body as Record<string, unknown>;
    expect(Object.keys(commitRequest).sort()).toEqual(['message', 'parents', 'tree']);
    expect(commitRequest['parents']).toEqual([before]);
    expect(commitRequest['message']).toMatch(/Co-authored-by: alice <501\+alice@users\.noreply\.github\.com>/);
    expect(gitCalls(w).find((q) => q.method === 'PATCH')!.body).toEqual({ sha: w.sim.gitData.commits[0]!.sha, force: false });
    // GitHub's commit, signed, is the branch's head on the remote.
    const [commit] = w.sim.gitData.commits;
    expect(w.sim.gitData.commits).toHaveLength(1);
    expect(commit).toMatchObject({ verified: true, namedAuthor: false, namedCommitter: false, by: 'github-actions[bot]' });
    expect(w.remoteGit(['rev-parse', 'pr-7']).trim()).toBe(commit!.sha);
    expect(w.remoteGit(['rev-parse', 'pr-7^']).trim()).toBe(before);
    expect(w.remoteGit(['log', '-1', '--format=%an <%ae>|%cn <%ce>', 'pr-7']).trim()).toBe(
      'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|GitHub <noreply@github.com>',
    );
    expect(w.remoteGit(['show', 'pr-7:math.js'])).toContain('return a + b;');
    expect(r.outputs['commit-sha']).toBe(commit!.sha);
    // The workspace ends on GitHub's commit, clean.
    expect(git(w, workspace, ['rev-parse', 'HEAD']).trim()).toBe(commit!.sha);
    expect(git(w, workspace, ['symbolic-ref', '--short', 'HEAD']).trim()).toBe('pr-7');
    expect(git(w, workspace, ['status', '--porcelain']).trim()).toBe('');
    expect(r.stdout).toMatch(/was made by GitHub and signed \(verified\)/);
    expect(finalComment(w, 7)).toContain(commit!.sha.slice(0, 7));
  });

  it('an issue fix on a new branch keeps deletions, renames, binary files, executables and symlinks byte for byte', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01, 0xff, 0xfe, 0x80, 0x0d, 0x0a]);
    const script: ScriptedReply[] = [
      tool('Bash', {
        command: [
          'mv old-name.txt new-name.txt',
          'rm gone.txt',
          `printf '${[...png].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')}' > logo.png`,
          "printf '#!/bin/sh\\necho run\\n' > run.sh",
          'chmod +x run.sh',
          "printf '#!/bin/sh\\necho tool 2\\n' > tool.sh",
          'ln -s math.js link.js',
          "printf 'line one\\r\\nline two\\r\\n' > crlf.txt",
        ].join(' && '),
      }),
      text('Reorganised the files.'),
    ];
    world = await makeWorld({ main: MAIN, executable: ['tool.sh'], script, sim: { permissions: { alice: 'write' } } });
    const w = world;
    w.sim.issues.set(3, { number: 3, title: 'Reorganise', body: '', user: { login: 'bob' }, comments: [] });
    const payload = commentPayload({ number: 3, body: '/agent reorganise the files', by: alice, onPull: false });
    const r = await w.run({ event: 'issue_comment', payload, inputs: { ...SIGNED, 'allowed-tools': 'Bash', sandbox: 'off' } });
    expect(r.outputs['conclusion']).toBe('success');
    expect(w.sim.schemaErrors).toEqual([]);
    const branch = r.outputs['branch']!;
    expect(branch).toMatch(/^agent\/issue-3-/);
    // A new branch is a new ref, made once.
    const refCalls = gitCalls(w).filter((q) => /\/git\/refs/.test(q.path));
    expect(refCalls.map((q) => `${q.method} ${q.status}`)).toEqual(['POST 201']);
    expect(refCalls[0]!.body).toEqual({ ref: `refs/heads/${branch}`, sha: w.sim.gitData.commits[0]!.sha });
    // The binary file went as a base64 blob; the text files inside the tree.
    const blobs = gitCalls(w).filter((q) => q.path.endsWith('/git/blobs'));
    expect(blobs.map((q) => (q.body as { encoding: string }).encoding)).toEqual(['base64']);
    const tree = gitCalls(w).find((q) => q.path.endsWith('/git/trees'))!.body as { tree: { path: string; sha?: string | null }[] };
    expect(
      tree.tree
        .filter((e) => e.sha === null)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['gone.txt', 'old-name.txt']);
    // On the remote: the modes and the bytes as the workspace had them.
    const listing = w.remoteGit(['ls-tree', '-r', branch]);
    const mode = (path: string) => new RegExp(`^(\\d+) \\w+ [0-9a-f]+\\t${path.replace('.', '\\.')}$`, 'm').exec(listing)?.[1];
    expect(mode('run.sh')).toBe('100755');
    expect(mode('tool.sh')).toBe('100755');
    expect(mode('link.js')).toBe('120000');
    expect(mode('logo.png')).toBe('100644');
    expect(mode('new-name.txt')).toBe('100644');
    expect(mode('old-name.txt')).toBeUndefined();
    expect(mode('gone.txt')).toBeUndefined();
    const bytes = (path: string) => execFileSync('git', ['cat-file', 'blob', `${branch}:${path}`], { cwd: w.bare });
    expect(bytes('logo.png').equals(png)).toBe(true);
    expect(bytes('link.js').toString()).toBe('math.js');
    expect(bytes('crlf.txt').toString()).toBe('line one\r\nline two\r\n');
    expect(bytes('new-name.txt').toString()).toBe('a file that moves\n');
    expect(bytes('tool.sh').toString()).toBe('#!/bin/sh\necho tool 2\n');
    // Signed, on main, and the pull request is opened from it.
    expect(w.sim.gitData.commits).toEqual([expect.objectContaining({ verified: true })]);
    expect(w.remoteGit(['rev-parse', `${branch}^`]).trim()).toBe(w.remoteGit(['rev-parse', 'main']).trim());
    expect(w.sim.pullsCreated).toEqual([expect.objectContaining({ head: branch, base: 'main' })]);
    expect(git(w, w.work, ['rev-parse', 'HEAD']).trim()).toBe(w.sim.gitData.commits[0]!.sha);
    expect(git(w, w.work, ['status', '--porcelain']).trim()).toBe('');
    expect(git(w, w.work, ['branch', '--list']).trim().split('\n')).toHaveLength(2);
  });

  it('a branch that moved during the run: the commit is made again on its new head, once, never forced', async () => {
    world = await pullWorld();
    const w = world;
    const before = w.remoteGit(['rev-parse', 'pr-7']).trim();
    const other = w.sim.moveBranch({ branch: 'pr-7', files: { 'other.md': 'their work\n' } });
    const workspace = w.checkout();
    const r = await w.run({ event: 'issue_comment', payload: askOnPull(w), inputs: SIGNED, workspace });
    expect(r.outputs['conclusion']).toBe('success');
    expect(other.pushed).toHaveLength(1);
    const patches = gitCalls(w).filter((q) => q.method === 'PATCH');
    expect(patches.map((q) => q.status)).toEqual([422, 200]);
    expect(patches.every((q) => (q.body as { force: boolean }).force === false)).toBe(true);
    expect(w.sim.gitData.refUpdates.some((u) => u.forced)).toBe(false);
    // Two commits made, the second on the other push's commit; that one is the branch's head.
    expect(w.sim.gitData.commits).toHaveLength(2);
    const head = w.remoteGit(['rev-parse', 'pr-7']).trim();
    expect(head).toBe(w.sim.gitData.commits[1]!.sha);
    expect(w.remoteGit(['rev-parse', 'pr-7^']).trim()).toBe(other.pushed[0]);
    expect(w.remoteGit(['rev-parse', 'pr-7^^']).trim()).toBe(before);
    expect(w.remoteGit(['show', 'pr-7:other.md'])).toBe('their work\n');
    expect(w.remoteGit(['show', 'pr-7:math.js'])).toContain('return a + b;');
    expect(git(w, workspace, ['rev-parse', 'HEAD']).trim()).toBe(head);
    expect(git(w, workspace, ['status', '--porcelain']).trim()).toBe('');
    expect(finalComment(w, 7)).toMatch(/made again on top of it/);
  });

  it('a branch moved by a push that changed the same file: a conflict with the diff, nothing forced', async () => {
    world = await pullWorld();
    const w = world;
    const other = w.sim.moveBranch({ branch: 'pr-7', files: { 'math.js': 'export const add = (a, b) => b + a;\n' } });
    const r = await w.run({ event: 'issue_comment', payload: askOnPull(w), inputs: SIGNED, workspace: w.checkout() });
    expect(r.outputs['conclusion']).toBe('undelivered');
    expect(r.outputs['undelivered']).toMatch(/conflict in math\.js/);
    expect(w.remoteGit(['rev-parse', 'pr-7']).trim()).toBe(other.pushed[0]);
    expect(
      gitCalls(w)
        .filter((q) => q.method === 'PATCH')
        .map((q) => q.status),
    ).toEqual([422]);
    const body = finalComment(w, 7);
    expect(body).toMatch(/conflict in `math\.js`/);
    expect(body).toContain('+  return a + b;');
  });

  it('a 5xx after the ref update went through: the branch is read back and no second commit is made', async () => {
    world = await pullWorld();
    const w = world;
    const before = w.remoteGit(['rev-parse', 'pr-7']).trim();
    w.sim.fail({ method: 'PATCH', path: /\/git\/refs\//, status: 502, afterEffect: true });
    const workspace = w.checkout();
    const r = await w.run({ event: 'issue_comment', payload: askOnPull(w), inputs: SIGNED, workspace });
    expect(r.outputs['conclusion']).toBe('success');
    const refs = gitCalls(w).filter((q) => /\/git\/refs?\//.test(q.path));
    expect(refs.map((q) => `${q.method} ${q.status}`)).toEqual(['PATCH 502', 'GET 200']);
    expect(w.sim.gitData.commits).toHaveLength(1);
    expect(w.remoteGit(['rev-list', '--count', `${before}..pr-7`]).trim()).toBe('1');
    expect(w.remoteGit(['rev-parse', 'pr-7']).trim()).toBe(w.sim.gitData.commits[0]!.sha);
    expect(git(w, workspace, ['rev-parse', 'HEAD']).trim()).toBe(w.sim.gitData.commits[0]!.sha);
  });

  it('with a personal token the commit is made but not signed, and the log and the comment say why', async () => {
    const pat = 'ghp_carolPersonalToken0123456789abcdefABCD';
    world = await makeWorld({
      main: MAIN,
      script: FIX,
      sim: { permissions: { alice: 'write' }, tokens: { [pat]: { login: 'carol', type: 'User' } } },
    });
    const w = world;
    w.sim.issues.set(3, { number: 3, title: 'add() is broken', body: '', user: { login: 'bob' }, comments: [] });
    const r = await w.run({
      event: 'issue_comment',
      payload: commentPayload({ number: 3, body: '/agent fix add()', by: alice, onPull: false }),
      inputs: { ...SIGNED, 'github-token': pat },
    });
    expect(r.outputs['conclusion']).toBe('success');
    expect(w.sim.gitData.commits).toEqual([expect.objectContaining({ verified: false, by: 'carol', namedAuthor: false })]);
    expect(r.stdout).toMatch(/not signed: the token is a personal token \(it acts as @carol\)/);
    expect(finalComment(w, 3)).toMatch(/not signed: the token is a personal token/);
    expect(w.remoteGit(['log', '-1', '--format=%an', r.outputs['branch']!]).trim()).toBe('carol');
  });
});
