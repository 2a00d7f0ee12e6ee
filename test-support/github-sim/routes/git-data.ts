/**
 * The Git Data API (https://docs.github.com/rest/git): blobs, trees, commits and refs, written as
 * real git objects into the bare repository that stands for the simulated repository on GitHub
 * (`GitHubSimOptions.gitRemote`), so a later `git fetch` from it sees the commits made here. A
 * commit whose request names no author or committer, made with a bot's or an App's token, is
 * recorded as GitHub records its web-flow signature: `verification: {verified: true, reason: "valid"}`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { userJson } from '../render.js';
import { API_DOCS, errorReply, field, notFound, validationFailed, type Ctx, type Reply, type Route } from '../reply.js';
import { gitBlobSha, type SimState } from '../state.js';
import type { SimGitCommit, SimUser } from '../types.js';

const DOCS = `${API_DOCS}/git`;
const MODES = new Set(['100644', '100755', '040000', '160000', '120000']);
const TYPE_OF_MODE: Record<string, string> = { '100644': 'blob', '100755': 'blob', '120000': 'blob', '040000': 'tree', '160000': 'commit' };
const SHA = /^[0-9a-f]{40}$/;
const ZERO = '0'.repeat(40);

/** git in the bare repository, with no config of the host's. */
function git(s: SimState, args: string[], o: { input?: Buffer | string; env?: Record<string, string> } = {}): string {
  const dir = s.opts.gitRemote;
  if (!dir) throw new Error('the simulator has no git remote (GitHubSimOptions.gitRemote)');
  return execFileSync('git', args, {
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8', ...o.env },
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
    ...(o.input !== undefined ? { input: o.input } : {}),
  });
}

function typeOf(s: SimState, sha: string): string | null {
  if (!SHA.test(sha)) return null;
  try {
    return git(s, ['cat-file', '-t', sha]).trim();
  } catch {
    return null;
  }
}

/** A loose object written as git writes one (zlib of `blob <size>\0<bytes>`): thousands per request need no process each. */
function writeBlob(s: SimState, content: Buffer): string {
  const sha = gitBlobSha(content);
  const dir = join(s.opts.gitRemote!, 'objects', sha.slice(0, 2));
  const file = join(dir, sha.slice(2));
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    writeFileSync(temp, deflateSync(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content])), { mode: 0o444 });
    renameSync(temp, file);
  }
  return sha;
}

function refSha(s: SimState, ref: string): string | null {
  try {
    return git(s, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim() || null;
  } catch {
    return null;
  }
}

const apiGit = (s: SimState, what: string, sha: string) => `${s.apiRepo()}/git/${what}/${sha}`;

function idOf(s: SimState, user: SimUser): number {
  return Number(userJson(s, user)['id']);
}

function botLike(user: SimUser): boolean {
  return (user.type ?? (user.login.endsWith('[bot]') ? 'Bot' : 'User')) === 'Bot';
}

// --- blobs ---------------------------------------------------------------------------------

function createBlob(s: SimState, ctx: Ctx): Reply {
  const docs = `${DOCS}/blobs#create-a-blob`;
  const content = field(ctx.body, 'content');
  const encoding = field(ctx.body, 'encoding') ?? 'utf-8';
  if (typeof content !== 'string') return validationFailed('Blob', 'content', 'missing_field', undefined, docs);
  if (encoding !== 'utf-8' && encoding !== 'base64') {
    return errorReply(422, `encoding must be "utf-8" or "base64"`, docs);
  }
  const bytes = encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
  const sha = writeBlob(s, bytes);
  s.gitData.blobs += 1;
  return { status: 201, json: { url: apiGit(s, 'blobs', sha), sha } };
}

function getBlob(s: SimState, sha: string): Reply {
  if (typeOf(s, sha) !== 'blob') return notFound(`${DOCS}/blobs#get-a-blob`);
  const bytes = execFileSync('git', ['cat-file', 'blob', sha], { cwd: s.opts.gitRemote!, env: { PATH: process.env['PATH'] ?? '' } });
  return {
    status: 200,
    json: {
      sha,
      node_id: Buffer.from(`04:Blob${sha}`).toString('base64'),
      size: bytes.length,
      url: apiGit(s, 'blobs', sha),
      content: bytes.toString('base64'),
      encoding: 'base64',
    },
  };
}

// --- trees ---------------------------------------------------------------------------------

interface TreeEntry {
  path: string;
  mode: string;
  type: string;
  sha: string | null;
}

function treeJson(s: SimState, sha: string): Record<string, unknown> {
  const listing = git(s, ['ls-tree', '-l', '-z', sha]);
  const tree = listing
    .split('\0')
    .filter((l) => l.length > 0)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode = '', type = '', objectSha = '', size = '-'] = line.slice(0, tab).split(/\s+/);
      return {
        path: line.slice(tab + 1),
        mode,
        type,
        sha: objectSha,
        ...(type === 'blob' ? { size: Number(size) } : {}),
        url: apiGit(s, type === 'tree' ? 'trees' : type === 'blob' ? 'blobs' : 'commits', objectSha),
      };
    });
  return { sha, url: apiGit(s, 'trees', sha), tree, truncated: false };
}

/** The entries of a tree request, checked as GitHub checks them; an error reply for the first bad one. */
function treeEntries(s: SimState, body: unknown, docs: string): TreeEntry[] | Reply {
  const raw = field(body, 'tree');
  if (!Array.isArray(raw)) return validationFailed('Tree', 'tree', 'missing_field', undefined, docs);
  const entries: TreeEntry[] = [];
  for (const [i, item] of raw.entries()) {
    const path = field(item, 'path');
    const mode = field(item, 'mode');
    const type = field(item, 'type');
    const sha = field(item, 'sha');
    const content = field(item, 'content');
    const bad = (why: string) => errorReply(422, `tree.${i}: ${why}`, docs);
    if (
      typeof path !== 'string' ||
      path === '' ||
      path.startsWith('/') ||
      path.endsWith('/') ||
      path.split('/').some((p) => p === '' || p === '.' || p === '..' || p === '.git')
    ) {
      return bad(`path ${JSON.stringify(path)} is not a valid path`);
    }
    if (typeof mode !== 'string' || !MODES.has(mode))
      return bad(`mode ${JSON.stringify(mode)} is not one of 100644, 100755, 040000, 160000, 120000`);
    if (type !== undefined && type !== TYPE_OF_MODE[mode]) return bad(`type ${JSON.stringify(type)} does not go with mode ${mode}`);
    if (sha !== undefined && content !== undefined) return bad('use either tree.sha or content, not both');
    if (content !== undefined) {
      if (typeof content !== 'string') return bad('content must be a string');
      if (TYPE_OF_MODE[mode] !== 'blob') return bad(`content is for blobs, not mode ${mode}`);
      entries.push({ path, mode, type: 'blob', sha: writeBlob(s, Buffer.from(content, 'utf8')) });
      continue;
    }
    if (sha === null) {
      entries.push({ path, mode, type: TYPE_OF_MODE[mode]!, sha: null });
      continue;
    }
    if (typeof sha !== 'string') return bad('either tree.sha or content is required');
    const wanted = TYPE_OF_MODE[mode]!;
    // A submodule's commit is not in this repository; every other object must be.
    if (wanted !== 'commit' && typeOf(s, sha) !== wanted) return bad(`tree.sha ${sha} is not a valid ${wanted}`);
    if (wanted === 'commit' && !SHA.test(sha)) return bad(`tree.sha ${sha} is not a valid commit id`);
    entries.push({ path, mode, type: wanted, sha });
  }
  return entries;
}

/** POST /git/trees: base_tree's entries with the request's applied (sha: null deletes), through a scratch index. */
function createTree(s: SimState, ctx: Ctx): Reply {
  const docs = `${DOCS}/trees#create-a-tree`;
  const baseTree = field(ctx.body, 'base_tree');
  if (baseTree !== undefined && (typeof baseTree !== 'string' || typeOf(s, baseTree) !== 'tree')) {
    return errorReply(422, 'base_tree is not a valid tree oid', docs);
  }
  const entries = treeEntries(s, ctx.body, docs);
  if (!Array.isArray(entries)) return entries;
  const scratch = mkdtempSync(join(tmpdir(), 'sim-index-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    if (typeof baseTree === 'string') git(s, ['read-tree', baseTree], { env });
    else git(s, ['read-tree', '--empty'], { env });
    const present = new Set(
      git(s, ['ls-files', '-z'], { env })
        .split('\0')
        .filter((p) => p.length > 0),
    );
    const lines: string[] = [];
    // Deletions first: a path that turns from a file into a directory is removed, then filled.
    for (const e of entries.filter((x) => x.sha === null)) {
      const under = [...present].filter((p) => p === e.path || p.startsWith(`${e.path}/`));
      if (under.length === 0) return errorReply(422, `tree.path ${e.path} does not exist in base_tree, so it cannot be deleted`, docs);
      for (const p of under) {
        lines.push(`0 ${ZERO}\t${p}`);
        present.delete(p);
      }
    }
    for (const e of entries.filter((x) => x.sha !== null)) {
      // A file replacing a directory, or a directory a file: what was there goes.
      for (const p of [...present].filter((q) => q.startsWith(`${e.path}/`) || e.path.startsWith(`${q}/`))) {
        lines.push(`0 ${ZERO}\t${p}`);
        present.delete(p);
      }
      if (e.type === 'tree') {
        for (const line of git(s, ['ls-tree', '-r', '-z', e.sha!])
          .split('\0')
          .filter((l) => l.length > 0)) {
          const tab = line.indexOf('\t');
          const [mode, , sha] = line.slice(0, tab).split(/\s+/);
          lines.push(`${mode} ${sha}\t${e.path}/${line.slice(tab + 1)}`);
        }
      } else {
        lines.push(`${e.mode} ${e.sha}\t${e.path}`);
      }
      present.add(e.path);
    }
    if (lines.length > 0) git(s, ['update-index', '-z', '--index-info'], { env, input: lines.map((l) => `${l}\0`).join('') });
    const sha = git(s, ['write-tree'], { env }).trim();
    s.gitData.trees += 1;
    return { status: 201, json: treeJson(s, sha) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// --- commits -------------------------------------------------------------------------------

interface Person {
  name: string;
  email: string;
  date: string;
}

function person(value: unknown): { name: string; email: string; date?: string } | null | 'bad' {
  if (value === undefined) return null;
  const name = field(value, 'name');
  const email = field(value, 'email');
  const date = field(value, 'date');
  if (typeof name !== 'string' || typeof email !== 'string') return 'bad';
  return { name, email, ...(typeof date === 'string' ? { date } : {}) };
}

/** The commit's header fields, read back from the object. */
function readCommit(s: SimState, sha: string): { tree: string; parents: string[]; author: Person; committer: Person; message: string } {
  const raw = git(s, ['cat-file', 'commit', sha]);
  const split = raw.indexOf('\n\n');
  const header = raw.slice(0, split).split('\n');
  const who = (line: string | undefined): Person => {
    const m = /^\S+ (.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(line ?? '');
    return { name: m?.[1] ?? '', email: m?.[2] ?? '', date: new Date(Number(m?.[3] ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  };
  return {
    tree: (header.find((l) => l.startsWith('tree ')) ?? '').slice(5),
    parents: header.filter((l) => l.startsWith('parent ')).map((l) => l.slice(7)),
    author: who(header.find((l) => l.startsWith('author '))),
    committer: who(header.find((l) => l.startsWith('committer '))),
    message: raw.slice(split + 2),
  };
}

function commitJson(s: SimState, sha: string): Record<string, unknown> {
  const c = readCommit(s, sha);
  const made = s.gitData.commits.find((x) => x.sha === sha);
  const verification = made?.verified
    ? {
        verified: true,
        reason: 'valid',
        signature: '-----BEGIN PGP SIGNATURE-----\n(web-flow)\n-----END PGP SIGNATURE-----\n',
        payload: null,
        verified_at: made.createdAt,
      }
    : { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };
  return {
    sha,
    node_id: Buffer.from(`04:Commit${sha}`).toString('base64'),
    url: apiGit(s, 'commits', sha),
    html_url: `${s.repoHtml}/commit/${sha}`,
    author: c.author,
    committer: c.committer,
    tree: { sha: c.tree, url: apiGit(s, 'trees', c.tree) },
    message: c.message,
    parents: c.parents.map((p) => ({ sha: p, url: apiGit(s, 'commits', p), html_url: `${s.repoHtml}/commit/${p}` })),
    verification,
  };
}

/** POST /git/commits: the token's user is the author unless the request names one; unnamed, a bot's commit is signed. */
function createCommit(s: SimState, ctx: Ctx): Reply {
  const docs = `${DOCS}/commits#create-a-commit`;
  const message = field(ctx.body, 'message');
  const tree = field(ctx.body, 'tree');
  const parents = field(ctx.body, 'parents') ?? [];
  if (typeof message !== 'string') return validationFailed('Commit', 'message', 'missing_field', undefined, docs);
  if (typeof tree !== 'string' || typeOf(s, tree) !== 'tree') return errorReply(422, 'Tree SHA does not exist', docs);
  if (!Array.isArray(parents) || parents.some((p) => typeof p !== 'string' || typeOf(s, p) !== 'commit')) {
    return errorReply(422, 'Parent SHA does not exist or is not a commit object', docs);
  }
  const author = person(field(ctx.body, 'author'));
  const committer = person(field(ctx.body, 'committer'));
  if (author === 'bad' || committer === 'bad') return errorReply(422, 'Invalid request.\n\n"name" and "email" are required.', docs);
  if (field(ctx.body, 'signature') !== undefined) return errorReply(422, 'the simulator does not check custom signatures', docs);
  type Who = { name: string; email: string; date?: string };
  const self: Who = { name: ctx.user.login, email: `${idOf(s, ctx.user)}+${ctx.user.login}@users.noreply.github.com` };
  const verified = author === null && committer === null && botLike(ctx.user);
  const a: Who = author ?? self;
  // GitHub commits what it signs itself as GitHub; otherwise the committer defaults to the author.
  const c: Who = committer ?? (verified ? { name: 'GitHub', email: 'noreply@github.com' } : a);
  const env: Record<string, string> = {
    GIT_AUTHOR_NAME: a.name,
    GIT_AUTHOR_EMAIL: a.email,
    GIT_COMMITTER_NAME: c.name,
    GIT_COMMITTER_EMAIL: c.email,
    ...(a.date ? { GIT_AUTHOR_DATE: a.date } : {}),
    ...(c.date ? { GIT_COMMITTER_DATE: c.date } : {}),
  };
  const args = ['commit-tree', tree, ...(parents as string[]).flatMap((p) => ['-p', p])];
  const sha = git(s, args, { env, input: message }).trim();
  const record: SimGitCommit = {
    sha,
    verified,
    namedAuthor: author !== null,
    namedCommitter: committer !== null,
    by: ctx.user.login,
    createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  s.gitData.commits.push(record);
  return { status: 201, json: commitJson(s, sha) };
}

// --- refs ----------------------------------------------------------------------------------

function refJson(s: SimState, ref: string, sha: string): Record<string, unknown> {
  return {
    ref,
    node_id: Buffer.from(`03:Ref${s.repoId}:${ref}`).toString('base64'),
    url: `${s.apiRepo()}/git/${ref}`,
    object: { type: 'commit', sha, url: apiGit(s, 'commits', sha) },
  };
}

const refName = (encoded: string): string => `refs/${decodeURIComponent(encoded)}`;

function validRef(s: SimState, ref: string): boolean {
  if (!/^refs\/[^/]+\/.+/.test(ref)) return false;
  try {
    git(s, ['check-ref-format', ref]);
    return true;
  } catch {
    return false;
  }
}

function getRef(s: SimState, encoded: string): Reply {
  const ref = refName(encoded);
  const sha = refSha(s, ref);
  return sha ? { status: 200, json: refJson(s, ref, sha) } : notFound(`${DOCS}/refs#get-a-reference`);
}

/** POST /git/refs: a new ref; one that exists is a 422. */
function createRef(s: SimState, ctx: Ctx): Reply {
  const docs = `${DOCS}/refs#create-a-reference`;
  const ref = field(ctx.body, 'ref');
  const sha = field(ctx.body, 'sha');
  if (typeof ref !== 'string' || !validRef(s, ref)) return errorReply(422, `${String(ref)} is not a valid ref name.`, docs);
  if (typeof sha !== 'string' || typeOf(s, sha) !== 'commit') return errorReply(422, 'Object does not exist', docs);
  applyMoves(s, ref);
  try {
    git(s, ['update-ref', ref, sha, ZERO]);
  } catch {
    return errorReply(422, 'Reference already exists', docs);
  }
  s.gitData.refUpdates.push({ ref, sha, by: ctx.user.login, created: true });
  return { status: 201, json: refJson(s, ref, sha) };
}

/** PATCH /git/refs/{ref}: a fast-forward unless `force`; the update is a compare-and-swap on the ref. */
function updateRef(s: SimState, ctx: Ctx, encoded: string): Reply {
  const docs = `${DOCS}/refs#update-a-reference`;
  const ref = refName(encoded);
  const sha = field(ctx.body, 'sha');
  const force = field(ctx.body, 'force') === true;
  if (typeof sha !== 'string' || typeOf(s, sha) !== 'commit') return errorReply(422, 'Object does not exist', docs);
  applyMoves(s, ref);
  const old = refSha(s, ref);
  if (!old) return errorReply(422, 'Reference does not exist', docs);
  if (!force && old !== sha) {
    try {
      git(s, ['merge-base', '--is-ancestor', old, sha]);
    } catch {
      return errorReply(422, 'Update is not a fast forward', docs);
    }
  }
  git(s, ['update-ref', ref, sha, old]);
  s.gitData.refUpdates.push({ ref, sha, by: ctx.user.login, created: false, ...(force ? { forced: true } : {}) });
  return { status: 200, json: refJson(s, ref, sha) };
}

/** The pushes of other runs set to land just before this ref update (see GitHubSim.moveBranch). */
function applyMoves(s: SimState, ref: string): void {
  for (const move of s.gitData.moves) {
    if (move.remaining <= 0 || `refs/heads/${move.branch}` !== ref) continue;
    move.remaining -= 1;
    move.pushed.push(pushToBranch(s, move.branch, move.files, move.message));
  }
}

/** Another push landing on `branch` (as another run or a person would): a commit of `files` on its head. */
export function pushToBranch(s: SimState, branch: string, files: Record<string, string>, message = 'Another change'): string {
  const ref = `refs/heads/${branch}`;
  // A branch that does not exist yet starts from the default branch, as another run's new branch would.
  const head = refSha(s, ref) ?? refSha(s, `refs/heads/${s.defaultBranch}`);
  if (!head) throw new Error(`no branch ${branch} or ${s.defaultBranch} to push to`);
  const scratch = mkdtempSync(join(tmpdir(), 'sim-push-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    git(s, ['read-tree', head], { env });
    const lines = Object.entries(files).map(([path, text]) => `100644 ${writeBlob(s, Buffer.from(text))}\t${path}`);
    git(s, ['update-index', '-z', '--index-info'], { env, input: lines.map((l) => `${l}\0`).join('') });
    const tree = git(s, ['write-tree'], { env }).trim();
    const who = {
      GIT_AUTHOR_NAME: 'Other Dev',
      GIT_AUTHOR_EMAIL: 'other@example.com',
      GIT_COMMITTER_NAME: 'Other Dev',
      GIT_COMMITTER_EMAIL: 'other@example.com',
    };
    const sha = git(s, ['commit-tree', tree, '-p', head], { env: { ...env, ...who }, input: message }).trim();
    git(s, ['update-ref', ref, sha, refSha(s, ref) ?? ZERO]);
    return sha;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const gitDataRoutes: Route[] = [
  { method: 'POST', pattern: /^\/git\/blobs$/, handler: (s, ctx) => createBlob(s, ctx) },
  { method: 'GET', pattern: /^\/git\/blobs\/([^/]+)$/, handler: (s, _ctx, m) => getBlob(s, m[1] ?? '') },
  { method: 'POST', pattern: /^\/git\/trees$/, handler: (s, ctx) => createTree(s, ctx) },
  {
    method: 'GET',
    pattern: /^\/git\/trees\/([^/]+)$/,
    handler: (s, _ctx, m) =>
      typeOf(s, m[1] ?? '') === 'tree' ? { status: 200, json: treeJson(s, m[1]!) } : notFound(`${DOCS}/trees#get-a-tree`),
  },
  { method: 'POST', pattern: /^\/git\/commits$/, handler: (s, ctx) => createCommit(s, ctx) },
  {
    method: 'GET',
    pattern: /^\/git\/commits\/([^/]+)$/,
    handler: (s, _ctx, m) =>
      typeOf(s, m[1] ?? '') === 'commit' ? { status: 200, json: commitJson(s, m[1]!) } : notFound(`${DOCS}/commits#get-a-commit-object`),
  },
  { method: 'GET', pattern: /^\/git\/ref\/(.+)$/, handler: (s, _ctx, m) => getRef(s, m[1] ?? '') },
  { method: 'POST', pattern: /^\/git\/refs$/, handler: (s, ctx) => createRef(s, ctx) },
  { method: 'PATCH', pattern: /^\/git\/refs\/(.+)$/, handler: (s, ctx, m) => updateRef(s, ctx, m[1] ?? '') },
];
