import type { IncomingMessage } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** A request body as node:http sends it: bytes (replayable on a redirect), a stream, or none. */
export type OutgoingBody = Buffer | Readable | null;

/** Why an aborted request or body fails: the signal's reason when it is an error (an AbortError by default), as fetch has it. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Request headers by lower-case name, a value repeated joined with ", " as fetch joins it. Kept
 * apart from the WHATWG Headers class, whose first use loads undici: a request can go out before
 * that has happened, and undici then loads while the answer is on its way.
 */
export type HeaderMap = Map<string, string>;

export function headerMap(init: RequestInit['headers']): HeaderMap {
  const map: HeaderMap = new Map();
  if (init === undefined) return map;
  const pairs: Iterable<readonly [string, string]> =
    Symbol.iterator in init ? (init as Iterable<readonly [string, string]>) : Object.entries(init as Record<string, string>);
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const previous = map.get(key);
    map.set(key, previous === undefined ? String(value) : `${previous}, ${String(value)}`);
  }
  return map;
}

function typed(bytes: Buffer, headers: HeaderMap, type: string): Buffer {
  if (!headers.has('content-type')) headers.set('content-type', type);
  return bytes;
}

/** Encodes a fetch body, setting the content type fetch would set when the caller did not. */
export function requestBody(body: RequestInit['body'], headers: HeaderMap): OutgoingBody {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return typed(Buffer.from(body), headers, 'text/plain;charset=UTF-8');
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams)
    return typed(Buffer.from(body.toString()), headers, 'application/x-www-form-urlencoded;charset=UTF-8');
  // Blobs, forms and streams: Response knows how each one is encoded and typed.
  const encoded = new Response(body);
  const type = encoded.headers.get('content-type');
  if (type !== null && !headers.has('content-type')) headers.set('content-type', type);
  return encoded.body ? Readable.fromWeb(encoded.body as NodeReadableStream<Uint8Array>) : null;
}

/** The body with its content coding undone, as fetch hands it over. */
async function decoded(res: IncomingMessage): Promise<Readable> {
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(coding)) return res;
  const zlib = await import('node:zlib');
  // Flushing what arrived keeps a compressed event stream flowing event by event.
  const decoder =
    coding === 'br'
      ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
      : (coding === 'deflate' ? zlib.createInflate : zlib.createGunzip)({
          flush: zlib.constants.Z_SYNC_FLUSH,
          finishFlush: zlib.constants.Z_SYNC_FLUSH,
        });
  return pipeline(res, decoder, () => undefined);
}

/**
 * The response body as a web stream, read as the consumer pulls. A connection that breaks midway
 * errors it as fetch does (`TypeError: terminated`); an abort errors it with the signal's reason.
 */
export async function responseBody(res: IncomingMessage, signal: AbortSignal | undefined): Promise<ReadableStream<Uint8Array>> {
  const source = await decoded(res);
  const chunks: AsyncIterator<Buffer> = source[Symbol.asyncIterator]();
  const abort = () => source.destroy(signal && abortReason(signal));
  signal?.addEventListener('abort', abort, { once: true });
  const release = () => signal?.removeEventListener('abort', abort);
  if (signal?.aborted) abort();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (!next.done) return controller.enqueue(next.value);
        release();
        // A stream destroyed by an abort may end quietly; the reader must still learn why.
        if (signal?.aborted) controller.error(abortReason(signal));
        else controller.close();
      } catch (error) {
        release();
        controller.error(signal?.aborted ? abortReason(signal) : new TypeError('terminated', { cause: error }));
      }
    },
    cancel() {
      release();
      source.destroy();
    },
  });
}
