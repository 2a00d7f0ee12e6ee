/**
 * Why git refused a push, read from its output: what decides whether pushing again can help.
 *
 * - `behind`: the ref moved on under the push. Either git saw it before sending (`[rejected]
 *   (fetch first | non-fast-forward | stale info)`), or two pushes raced and the server's ref
 *   update lost (`[remote rejected] (failed to update ref)`, `cannot lock ref ...: is at X but
 *   expected Y`, `incorrect old value provided`). Fetching, rebasing and pushing again helps.
 * - `transient`: the server or the connection failed (`remote: Internal Server Error`, HTTP 5xx,
 *   a dropped connection). The same push may go through a moment later.
 * - `final`: anything else (no permission, a protected branch, a hook's verdict): retrying
 *   cannot help.
 */
export type PushRefusal = 'behind' | 'transient' | 'final';

/** Refusals no retry changes, checked first: a 403 can come with a dropped connection after it. */
const FINAL = [
  /\bGH0\d\d\b/, // GitHub's rules: protected branch, workflow scope, secret scanning
  /\bpermission\b[^\n]*\bdenied\b/i,
  /Authentication failed/i,
  /returned error: 4\d\d\b/,
  /\bHTTP 4\d\d\b/,
];

const BEHIND = [
  /\[rejected\][^\n]*\((fetch first|non-fast-forward|stale info)\)/,
  /\[remote rejected\][^\n]*\((failed to update ref|cannot lock ref|incorrect old value)/i,
  /cannot lock ref '[^'\n]*': is at [0-9a-f]+ but expected [0-9a-f]+/,
];

const TRANSIENT = [
  /\b(Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b/i,
  /returned error: 5\d\d\b/,
  /\bHTTP 5\d\d\b/,
  /\bRPC failed\b/,
  /the remote end hung up unexpectedly/,
  /unexpected disconnect while reading sideband packet/,
  /\bearly EOF\b/,
  /Connection (reset|refused|timed out)/i,
  /Operation timed out/i,
  /Could not resolve host/i,
  /Failed to connect to/i,
];

export function pushRefusal(error: unknown): PushRefusal {
  const text = error instanceof Error ? error.message : String(error);
  if (FINAL.some((p) => p.test(text))) return 'final';
  if (BEHIND.some((p) => p.test(text))) return 'behind';
  if (TRANSIENT.some((p) => p.test(text))) return 'transient';
  return 'final';
}
