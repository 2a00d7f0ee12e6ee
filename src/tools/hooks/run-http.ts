// An http hook: the event's JSON POSTed to the handler's URL; the response body is read as a
// command hook's stdout (JSON output or plain text), and a status other than 2xx is a failure
// that does not block (PreToolUse excepted: there every failure refuses the call).
import type { HookProcessResult } from './run-hook.js';
import type { HttpHook } from './schema.js';

const BODY_LIMIT = 64 * 1024;

/** `$VAR` and `${VAR}` in a header value, from the variables the handler lists only; others become empty. */
function expand(value: string, allowed: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_m, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? '';
      return allowed.includes(name) ? (env[name] ?? '') : '';
    },
  );
}

export async function runHttpHook(
  hook: HttpHook,
  input: string,
  o: { env: Readonly<Record<string, string | undefined>>; timeoutMs: number; signal: AbortSignal },
): Promise<HookProcessResult> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = AbortSignal.any([o.signal, timeout]);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(hook.headers ?? {})) headers[name] = expand(value, hook.allowedEnvVars ?? [], o.env);
  const result = (r: Partial<HookProcessResult>): HookProcessResult => ({
    exitCode: null,
    exitSignal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    cancelled: false,
    ms: Date.now() - started,
    ...r,
  });
  try {
    const response = await fetch(hook.url, { method: 'POST', headers, body: input, signal, redirect: 'error' });
    const text = (await response.text()).slice(0, BODY_LIMIT);
    if (response.ok) return result({ exitCode: 0, stdout: text });
    return result({ exitCode: 1, stderr: `HTTP ${response.status} from ${hook.url}${text ? `: ${text}` : ''}` });
  } catch (error) {
    if (timeout.aborted) return result({ timedOut: true });
    if (o.signal.aborted) return result({ cancelled: true });
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return result({ startError: `${error instanceof Error ? error.message : String(error)}${cause}` });
  }
}
