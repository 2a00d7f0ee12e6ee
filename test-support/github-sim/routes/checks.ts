/** Check runs of a commit and the job logs behind them. */
import { checkRunJson } from '../render.js';
import { API_DOCS, notFound, num, paginate, type Reply, type Route } from '../reply.js';
import type { SimState } from '../state.js';

export const checkRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/commits\/(.+)\/check-runs$/,
    handler: (s, ctx, m) => {
      const ref = decodeURIComponent(m[1] ?? '');
      // A branch name resolves to its tip; only pull request heads are known to the simulator.
      const headOfBranch = [...s.issues.values()].find((i) => i.pull?.headRef === ref)?.pull?.headSha;
      const sha = headOfBranch ?? ref;
      const matches = s.checkRuns
        .filter((r) => r.head_sha === sha)
        .filter((r) => ctx.query.check_name === undefined || r.name === ctx.query.check_name)
        .filter((r) => ctx.query.status === undefined || r.status === ctx.query.status);
      const { page, link } = paginate(matches, ctx, s.url);
      return {
        status: 200,
        json: { total_count: matches.length, check_runs: page.map((r) => checkRunJson(s, r)) },
        ...(link ? { headers: { link } } : {}),
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/actions\/jobs\/(\d+)\/logs$/,
    handler: (s, _ctx, m) => {
      const id = num(m[1]);
      const run = s.checkRuns.find((r) => r.id === id);
      if (!run || run.log === undefined) return notFound(`${API_DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run`);
      // GitHub redirects to a short-lived, pre-signed download URL that needs no Authorization.
      return { status: 302, headers: { location: `${s.url}/_logs/${id}` } };
    },
  },
];

/** Stands in for GitHub's pre-signed blob URL, so it is served without a token. */
export function logDownload(s: SimState, id: number): Reply {
  const run = s.checkRuns.find((r) => r.id === id);
  if (run?.log === undefined) return { status: 404, text: 'BlobNotFound' };
  return { status: 200, text: run.log, contentType: 'text/plain; charset=utf-8' };
}
