import { format } from 'node:util';

/** The logger shape the Anthropic and OpenAI clients take (`ClientOptions.logger`). */
export interface SdkLogger {
  error: (message: string, ...rest: unknown[]) => void;
  warn: (message: string, ...rest: unknown[]) => void;
  info: (message: string, ...rest: unknown[]) => void;
  debug: (message: string, ...rest: unknown[]) => void;
}

/**
 * The SDKs' own messages (an unparsable stream event, quoted whole; retries) as single lines for
 * `sink`, which escapes them for its log; dropped without one. Left to themselves the SDKs call
 * `console`, and server-sent text would reach the job log raw, workflow commands and all.
 */
export function sdkLogger(sink: ((line: string) => void) | undefined): SdkLogger {
  const line =
    (level: string) =>
    (message: string, ...rest: unknown[]) =>
      sink?.(`model client ${level}: ${format(message, ...rest)}`);
  return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug') };
}
