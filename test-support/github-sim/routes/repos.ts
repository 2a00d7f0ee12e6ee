/** The repository itself: its metadata, collaborator permissions and the contents API. */
import { repoJson, userJson } from '../render.js';
import { API_DOCS, errorReply, notFound, type Ctx, type Reply, type Route } from '../reply.js';
import { fakeSha, gitBlobSha, type SimState } from '../state.js';

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

function base64Lines(content: Buffer): string {
  // The contents API wraps base64 at 60 columns, each line ending in a newline.
  const b64 = content.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 60) out += `${b64.slice(i, i + 60)}\n`;
  return out;
}

function permissionReply(s: SimState, login: string): Reply {
  const role = s.roleOf(login);
  // The legacy `permission` folds maintain into write and triage into read.
  const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
  const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(role);
  return {
    status: 200,
    json: {
      permission,
      role_name: role,
      user: {
        ...userJson(s, { login }),
        permissions: { admin: rank >= 5, maintain: rank >= 4, push: rank >= 3, triage: rank >= 2, pull: rank >= 1 },
        role_name: role,
      },
    },
  };
}

function fileReply(s: SimState, ctx: Ctx, ref: string, path: string, text: string): Reply {
  const content = Buffer.from(text, 'utf8');
  if (/application\/vnd\.github(\.v3)?\.raw/.test(ctx.accept)) {
    return { status: 200, text, contentType: 'application/vnd.github.raw; charset=utf-8' };
  }
  const encodedPath = encodePath(path);
  const sha = gitBlobSha(content);
  const self = `${s.apiRepo()}/contents/${encodedPath}?ref=${encodeURIComponent(ref)}`;
  const html = `${s.repoHtml}/blob/${encodeURIComponent(ref)}/${encodedPath}`;
  const git = `${s.apiRepo()}/git/blobs/${sha}`;
  return {
    status: 200,
    json: {
      type: 'file',
      encoding: 'base64',
      size: content.length,
      name: path.split('/').at(-1) ?? path,
      path,
      content: base64Lines(content),
      sha,
      url: self,
      git_url: git,
      html_url: html,
      download_url: `https://raw.githubusercontent.com/${s.fullName}/${encodeURIComponent(ref)}/${encodedPath}`,
      _links: { self, git, html },
    },
  };
}

function directoryReply(s: SimState, tree: Record<string, string>, ref: string, path: string, docs: string): Reply {
  // A directory exists implicitly when some file lives below it.
  const prefix = path === '' ? '' : `${path}/`;
  const entries = new Map<string, 'file' | 'dir'>();
  for (const p of Object.keys(tree)) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    const slash = rest.indexOf('/');
    entries.set(slash >= 0 ? rest.slice(0, slash) : rest, slash >= 0 ? 'dir' : 'file');
  }
  if (entries.size === 0) return notFound(docs);
  const listing = [...entries]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, type]) => {
      const childPath = `${prefix}${name}`;
      const childText = tree[childPath];
      return {
        type,
        name,
        path: childPath,
        size: childText !== undefined ? Buffer.byteLength(childText) : 0,
        sha: childText !== undefined ? gitBlobSha(Buffer.from(childText)) : fakeSha(`tree:${ref}:${childPath}`),
        url: `${s.apiRepo()}/contents/${encodePath(childPath)}?ref=${encodeURIComponent(ref)}`,
        html_url: `${s.repoHtml}/${type === 'dir' ? 'tree' : 'blob'}/${encodeURIComponent(ref)}/${childPath}`,
      };
    });
  return { status: 200, json: listing };
}

export const repoRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^$/,
    handler: (s) => ({
      status: 200,
      json: { ...repoJson(s), permissions: { admin: false, maintain: false, push: true, triage: true, pull: true } },
    }),
  },
  {
    method: 'GET',
    pattern: /^\/collaborators\/([^/]+)\/permission$/,
    handler: (s, _ctx, m) => permissionReply(s, decodeURIComponent(m[1] ?? '')),
  },
  {
    method: 'GET',
    pattern: /^\/contents(?:\/(.*))?$/,
    handler: (s, ctx, m) => {
      const docs = `${API_DOCS}/repos/contents#get-repository-content`;
      const path = decodeURIComponent(m[1] ?? '').replace(/^\/+|\/+$/g, '');
      const ref = ctx.query.ref ?? s.defaultBranch;
      const tree = s.files[ref];
      if (!tree) return errorReply(404, `No commit found for the ref ${ref}`, docs);
      const text = tree[path];
      if (text !== undefined) return fileReply(s, ctx, ref, path, text);
      return directoryReply(s, tree, ref, path, docs);
    },
  },
];
