/** The route table under `/repos/{owner}/{repo}`, and the dispatch into it. */
import { notFound, type Ctx, type Reply, type Route } from '../reply.js';
import type { SimState } from '../state.js';
import { checkRoutes } from './checks.js';
import { gitDataRoutes } from './git-data.js';
import { issueRoutes } from './issues.js';
import { pullRoutes } from './pulls.js';
import { reactionRoutes } from './reactions.js';
import { repoRoutes } from './repos.js';
import { reviewRoutes } from './reviews.js';

export { logDownload } from './checks.js';

// The patterns are anchored and disjoint, so the order of the groups does not decide any match.
const routes: Route[] = [
  ...repoRoutes,
  ...issueRoutes,
  ...reactionRoutes,
  ...pullRoutes,
  ...reviewRoutes,
  ...checkRoutes,
  ...gitDataRoutes,
];

export function route(s: SimState, ctx: Ctx, pathname: string): Reply {
  if (!/^\/repos\//.test(pathname)) return notFound();
  const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!m) return notFound();
  // GitHub treats owner and repository names case-insensitively.
  const names = (segment: string | undefined, name: string): boolean =>
    decodeURIComponent(segment ?? '').toLowerCase() === name.toLowerCase();
  if (!names(m[1], s.owner) || !names(m[2], s.repo)) return notFound();
  const sub = m[3] ?? '';
  for (const r of routes) {
    if (r.method !== ctx.method) continue;
    const match = r.pattern.exec(sub);
    if (match) return r.handler(s, ctx, match);
  }
  return notFound();
}
