/**
 * A stateful simulator of the slice of the GitHub REST API the action uses, served over HTTP on
 * 127.0.0.1 so that a real Octokit (the action's own client, with its retries and pacing) can be pointed at it via
 * `baseUrl`. It answers with GitHub's JSON shapes, headers, pagination `Link`s and error envelopes,
 * and it can inject faults (5xx, secondary rate limits) either before or after a request's effect,
 * so end-to-end tests can check what the action does when GitHub misbehaves. Only node built-ins,
 * so the demo can load it as is; the one exception, checking request bodies against GitHub's
 * OpenAPI description (ajv, @octokit/openapi), is imported only when a request with a body arrives.
 *
 * The implementation lives in `github-sim/`; this module is the entry every importer uses.
 */
export { startGitHubSim } from './github-sim/server.js';
export type {
  GitHubSim,
  GitHubSimOptions,
  LimitStats,
  Permission,
  SimApp,
  SimCheckRun,
  SimInstallationToken,
  SimComment,
  SimCreatedPull,
  SimBranchMove,
  SimFault,
  SimGitCommit,
  SimGitData,
  SimHang,
  SimIssue,
  SimPull,
  SimPullFile,
  SimReaction,
  SimRequest,
  SimReview,
  SimRefUpdate,
  SimReviewComment,
  SimUser,
} from './github-sim/types.js';
