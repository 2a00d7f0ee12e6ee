import * as z from '../core/schema.js';
import type { GitHubEvent } from '../github/event.js';
import type { Trigger } from '../github/trigger.js';

/** The standard variables a runner sets for every step; the action reads no others. */
export const RunnerEnvSchema = z.object({
  GITHUB_EVENT_NAME: z.string().check(z.minLength(1)),
  GITHUB_EVENT_PATH: z.string().check(z.minLength(1)),
  GITHUB_REPOSITORY: z.string().check(z.regex(/^[^/]+\/[^/]+$/)),
  GITHUB_WORKSPACE: z.string().check(z.minLength(1)),
  GITHUB_API_URL: z._default(z.string(), 'https://api.github.com'),
  GITHUB_SERVER_URL: z._default(z.string(), 'https://github.com'),
  GITHUB_RUN_ID: z._default(z.string(), '0'),
  GITHUB_RUN_ATTEMPT: z._default(z.string(), '1'),
  RUNNER_TEMP: z.optional(z.string()),
});
export type RunnerEnv = z.infer<typeof RunnerEnvSchema>;

export function readRunnerEnv(env: NodeJS.ProcessEnv): RunnerEnv {
  const parsed = RunnerEnvSchema.safeParse(env);
  if (!parsed.success) {
    const missing = parsed.error.issues.map((i) => String(i.path[0])).join(', ');
    throw new Error(`not running in a GitHub Actions job: ${missing} missing or malformed`);
  }
  return parsed.data;
}

export function runUrl(r: RunnerEnv): string {
  const attempt = Number(r.GITHUB_RUN_ATTEMPT) > 1 ? `/attempts/${r.GITHUB_RUN_ATTEMPT}` : '';
  return `${r.GITHUB_SERVER_URL}/${r.GITHUB_REPOSITORY}/actions/runs/${r.GITHUB_RUN_ID}${attempt}`;
}

/** The comment, issue or run that asked for the work. */
export function requestUrl(j: { event: GitHubEvent; trigger: Trigger; runner: RunnerEnv }, link: string): string {
  const { event, trigger, runner } = j;
  if ('comment' in event && event.comment) return event.comment.htmlUrl;
  if (trigger.target.type !== 'repo') return `${runner.GITHUB_SERVER_URL}/${runner.GITHUB_REPOSITORY}/issues/${trigger.target.number}`;
  return link;
}
