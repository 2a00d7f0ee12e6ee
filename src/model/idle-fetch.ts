/** What a response body errors with when the server sent nothing for too long. */
export class StreamIdleError extends Error {
  override name = 'StreamIdleError';
  constructor(ms: number) {
    super(`the model sent nothing for ${ms / 1000} s (stream-idle-timeout)`);
  }
}

/**
 * The body, erroring once a read from the server waits longer than `ms`. The timer runs only
 * while a read is pending (the SDK asked for more and nothing came), so a slow consumer never
 * counts as a silent server. Not an AbortError: the SDKs end a stream quietly on those.
 */
function idleBody(body: ReadableStream<Uint8Array>, ms: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StreamIdleError(ms)), ms);
        });
        try {
          const { done, value } = await Promise.race([reader.read(), idle]);
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          // Frees the socket; the read it leaves pending settles with the cancellation.
          reader.cancel(error).catch(() => undefined);
          controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * fetch whose response bodies give up after `ms` without a byte: the SDKs' own timeout covers the
 * wait for the headers only, so a stream that goes quiet after `message_start` would otherwise
 * hold the run until its deadline. The error surfaces as a broken stream, which the loop retries.
 */
export function idleTimeoutFetch(inner: typeof fetch, ms: number): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const { status, statusText, headers } = response;
    const watched = new Response(idleBody(response.body, ms), { status, statusText, headers });
    // The SDKs name the URL in their log lines and errors; a constructed Response has none of its own.
    Object.defineProperty(watched, 'url', { value: response.url });
    return watched;
  };
}
