import { createHash } from 'node:crypto';
import type {
  GitHubSimOptions,
  Permission,
  SimCheckRun,
  SimComment,
  SimCreatedPull,
  SimFault,
  SimGitData,
  SimIssue,
  SimPull,
  SimReaction,
  SimRequest,
  SimInstallationToken,
  SimReviewComment,
  SimUser,
} from './types.js';

// Seeded data carries no timestamps of its own; a fixed past instant keeps fixtures deterministic.
export const SEED_TIME = '2024-01-01T00:00:00Z';

/** GitHub's timestamps have second precision. */
export function isoNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function stableInt(seed: string, modulo = 90_000_000): number {
  return (parseInt(createHash('sha1').update(seed).digest('hex').slice(0, 8), 16) % modulo) + 1_000_000;
}

export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export function gitBlobSha(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export type ActiveFault = SimFault & { remaining: number };

export interface ReactionMeta {
  id: number;
  created_at: string;
}

/** Everything the simulator knows and mutates; the routes and renderers read it at request time. */
export class SimState {
  readonly owner: string;
  readonly repo: string;
  readonly fullName: string;
  readonly defaultBranch: string;
  readonly serverUrl: string;
  readonly appUser: SimUser;
  readonly repoHtml: string;
  readonly repoId: number;
  readonly issues = new Map<number, SimIssue>();
  readonly files: Record<string, Record<string, string>>;
  readonly checkRuns: SimCheckRun[];
  readonly requests: SimRequest[] = [];
  readonly pullsCreated: SimCreatedPull[] = [];
  readonly reactions: SimReaction[] = [];
  readonly reactionMeta = new Map<SimReaction, ReactionMeta>();
  readonly faults: ActiveFault[] = [];
  readonly schemaErrors: string[] = [];
  readonly installationTokens: SimInstallationToken[] = [];
  readonly gitData: SimGitData = { blobs: 0, trees: 0, commits: [], refUpdates: [], moves: [] };
  nextCommentId: number;
  // GitHub's review ids are far larger than its comment ids; starting high keeps the two apart in tests.
  nextReviewId: number;
  nextReactionId = 5000;
  requestCounter = 0;
  rateRemaining = 5000;
  /** Known only once the server listens; every rendered API URL starts with it. */
  url = '';

  constructor(readonly opts: GitHubSimOptions) {
    this.owner = opts.owner;
    this.repo = opts.repo;
    this.fullName = `${this.owner}/${this.repo}`;
    this.defaultBranch = opts.defaultBranch ?? 'main';
    this.serverUrl = (opts.serverUrl ?? 'https://github.com').replace(/\/+$/, '');
    this.appUser = {
      login: opts.appLogin ?? 'github-actions[bot]',
      type: (opts.appLogin ?? 'github-actions[bot]').endsWith('[bot]') ? 'Bot' : 'User',
    };
    this.repoHtml = `${this.serverUrl}/${this.fullName}`;
    this.repoId = stableInt(`repo:${this.fullName}`);
    // Fixtures are often shared between tests; the simulator mutates its own copy.
    for (const issue of structuredClone(opts.issues ?? [])) this.issues.set(issue.number, issue);
    this.files = opts.files ?? {};
    this.checkRuns = opts.checkRuns ?? [];
    let maxCommentId = 0;
    let maxReviewId = 100_000_000;
    for (const issue of this.issues.values()) {
      for (const c of issue.comments) maxCommentId = Math.max(maxCommentId, c.id);
      for (const c of issue.pull?.reviewComments ?? []) maxCommentId = Math.max(maxCommentId, c.id);
      for (const r of issue.pull?.reviews ?? []) maxReviewId = Math.max(maxReviewId, r.id);
    }
    this.nextReviewId = maxReviewId + 1;
    // Comment ids (issue and review comments alike) are unique and increasing, as GitHub's are.
    this.nextCommentId = Math.max(maxCommentId + 1, 1000);
  }

  apiRepo(): string {
    return `${this.url}/repos/${this.fullName}`;
  }

  roleOf(login: string): Permission {
    return this.opts.permissions[login] ?? (this.opts.private ? 'none' : 'read');
  }

  association(u: SimUser): string {
    if (u.login.toLowerCase() === this.owner.toLowerCase()) return 'OWNER';
    const role = this.opts.permissions[u.login];
    return role && role !== 'none' && role !== 'read' ? 'COLLABORATOR' : 'NONE';
  }

  findComment(id: number): { issue: SimIssue; comment: SimComment } | undefined {
    for (const issue of this.issues.values()) {
      const comment = issue.comments.find((c) => c.id === id);
      if (comment) return { issue, comment };
    }
    return undefined;
  }

  findReviewComment(id: number): { issue: SimIssue; pull: SimPull; comment: SimReviewComment } | undefined {
    for (const issue of this.issues.values()) {
      const comment = issue.pull?.reviewComments?.find((c) => c.id === id);
      if (comment && issue.pull) return { issue, pull: issue.pull, comment };
    }
    return undefined;
  }
}
