import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { relativePath } from '../../core/paths.js';

/**
 * Path patterns of Read/Edit/Write/Glob/Grep rules, with gitignore's meaning rather than
 * picomatch's: a pattern without a slash matches at any depth, a leading `/` or `./` anchors it
 * to the workspace root, and a path matches when it or one of its parent directories does (so
 * `Edit(src)` covers `src/a.ts`, as `src` in a .gitignore would). `//abs/path` and `~/path`
 * name places outside the workspace, for deny rules copied from Claude Code settings.
 */
export interface PathPattern {
  /** Tested against paths relative to the workspace root, or absolute ones (`//`, `~/`). */
  readonly absolute: boolean;
  /** True when a pattern without a slash was widened to any depth (`.env` is `**\/.env`). */
  readonly anyDepth: boolean;
  readonly test: (candidate: string) => boolean;
  /** The path itself only, not its parents: for walks that have tested the parents already. */
  readonly regex: RegExp;
  /** Whether '' (the root itself) matches. */
  readonly coversRoot: boolean;
}

/** Where a call's path points, lexically or after symlinks: inside the workspace or not. */
export interface PathCandidate {
  /** Relative to the workspace root, '' for the root itself; undefined when outside. */
  readonly relative: string | undefined;
  readonly absolute: string;
}

// picomatch reads these as groups, braces, extglobs or negation; gitignore reads them literally,
// and a rule must never match more than its text says (`src/(a|b)` must not match `src/a`).
const LITERAL_IN_GITIGNORE = new Set(['(', ')', '|', '{', '}', '+', '@', '!']);
const PICOMATCH_OPTIONS = { dot: true, noextglob: true, nobrace: true, nonegate: true } as const;

function toPicomatch(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      out += c + pattern.charAt(i + 1);
      i++;
    } else if (c === '[' && pattern.charAt(i + 1) === '!') {
      out += '[^'; // gitignore's negated class; picomatch only knows [^...]
      i++;
    } else {
      out += LITERAL_IN_GITIGNORE.has(c) ? `\\${c}` : c;
    }
  }
  return out;
}

/** Every prefix of a slash-separated path, longest first: the path, then its parents. */
function withParents(p: string): string[] {
  const segments = p.split('/');
  return segments.map((_, i) => segments.slice(0, segments.length - i).join('/'));
}

/**
 * Compiles one rule's pattern, or throws saying why it is not one. A deny rule's relative pattern
 * with a slash (`secrets/**`) matches at any depth too (`config/secrets/key`), as in Claude Code;
 * an allow rule's stays relative to the root, which can only refuse more.
 */
export function compilePathPattern(spec: string, home: string, mode: 'allow' | 'deny' = 'allow'): PathPattern {
  if (spec.includes('\0')) throw new Error('a path pattern cannot contain a NUL byte');
  let body = spec;
  let absolute = false;
  if (body.startsWith('//')) {
    absolute = true;
    body = body.slice(2);
  } else if (body === '~' || body.startsWith('~/')) {
    absolute = true;
    body = `${home.replace(/^\/+|\/+$/g, '')}/${body.slice(2)}`;
  }
  const anchored = absolute || body.startsWith('/') || body.startsWith('./');
  body = body.replace(/^(\.?\/)+/, '').replace(/\/+$/, '');
  if (body === '.') body = '';
  if (body.split('/').includes('..')) {
    throw new Error("'..' is not allowed: patterns are relative to the workspace root (use //absolute/path outside it)");
  }
  if (body.split('/').includes('.')) throw new Error("'.' segments are not allowed inside a pattern");
  const bareName = !anchored && body !== '' && !body.includes('/');
  const nested = mode === 'deny' && !anchored && body !== '' && !bareName;
  const anyDepth = bareName || nested;
  const glob = body === '' ? '**' : bareName ? `**/${body}` : body;
  const compiled = picomatch.makeRe(toPicomatch(glob), PICOMATCH_OPTIONS);
  const regex = nested
    ? new RegExp(`(?:${compiled.source})|(?:${picomatch.makeRe(toPicomatch(`**/${body}`), PICOMATCH_OPTIONS).source})`, compiled.flags)
    : compiled;
  // The root itself ('') is covered only by a pattern that covers every path under it.
  const coversRoot = ['**', '**/*', '**/**'].includes(glob);
  return {
    absolute,
    anyDepth,
    regex,
    coversRoot,
    test: (candidate) => (candidate === '' ? coversRoot : withParents(candidate).some((p) => regex.test(p))),
  };
}

/** Where `p` (absolute, or relative to root) points, lexically. */
export function locate(p: string, root: string): PathCandidate {
  const absolute = path.resolve(root, p);
  const rel = relativePath(root, absolute);
  const outside = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
  return { relative: outside ? undefined : rel.split(path.sep).join('/'), absolute };
}

/**
 * Whether a candidate matches. Outside the workspace only absolute patterns and any-depth ones
 * (`.env`, `*.key`) can match, and the caller lets only deny rules look there.
 */
export function matchesPath(pattern: PathPattern, candidate: PathCandidate): boolean {
  const abs = candidate.absolute.split(path.sep).join('/').replace(/^\/+/, '');
  if (pattern.absolute) return pattern.test(abs);
  if (candidate.relative !== undefined) return pattern.test(candidate.relative);
  return pattern.anyDepth && pattern.test(abs);
}

/** Many patterns tested as one, for checking every file of a tree against every deny rule. */
export interface PatternSet {
  /** As matchesPath against any of the patterns. */
  readonly matches: (candidate: PathCandidate) => boolean;
  /** The path itself, inside the workspace, without its parents (a walk tested those already). */
  readonly matchesExactly: (relative: string, absolute: string) => boolean;
}

function union(patterns: readonly PathPattern[]): RegExp | undefined {
  return patterns.length === 0 ? undefined : new RegExp(patterns.map((p) => `(?:${p.regex.source})`).join('|'));
}

/** One regular expression per kind of pattern (absolute, relative, any depth) instead of one per rule. */
export function patternSet(patterns: readonly PathPattern[]): PatternSet {
  const abs = union(patterns.filter((p) => p.absolute));
  const rel = union(patterns.filter((p) => !p.absolute));
  const any = union(patterns.filter((p) => !p.absolute && p.anyDepth));
  const coversRoot = patterns.some((p) => !p.absolute && p.coversRoot);
  const test = (re: RegExp | undefined, candidate: string) =>
    re !== undefined && (candidate === '' ? coversRoot : withParents(candidate).some((p) => re.test(p)));
  const bare = (absolute: string) => absolute.split(path.sep).join('/').replace(/^\/+/, '');
  return {
    matches: (c) => test(abs, bare(c.absolute)) || (c.relative !== undefined ? test(rel, c.relative) : test(any, bare(c.absolute))),
    matchesExactly: (relative, absolute) => (abs?.test(bare(absolute)) ?? false) || (rel?.test(relative) ?? false),
  };
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Like realpath, but for paths that do not exist yet too: the nearest existing ancestor is
 * resolved and the rest appended, and a dangling symlink is followed by hand, since writing
 * through it creates its target. Undefined when it cannot be told (a loop, a permission error),
 * which the caller treats as matching no allow rule. Sync because decisions are.
 */
export function realPathSync(p: string, depth = 0): string | undefined {
  if (depth > 40) return undefined;
  try {
    return fs.realpathSync.native(p);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  const realParent = realPathSync(parent, depth + 1);
  if (realParent === undefined) return undefined;
  const joined = path.join(realParent, path.basename(p));
  try {
    if (fs.lstatSync(joined).isSymbolicLink()) {
      return realPathSync(path.resolve(realParent, fs.readlinkSync(joined)), depth + 1);
    }
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
  }
  return joined;
}
