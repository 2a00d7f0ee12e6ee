/** When each event of a paced reply goes out: the first token's latency, then the output rate. */
import { isRecord } from './common.js';
import type { Pace } from './types.js';

interface Event {
  type: string;
  [key: string]: unknown;
}

/** The tokens a delta carries, by the server's own measure (4 characters a token), at least one. */
function deltaTokens(event: Event): number {
  const body = isRecord(event['delta']) ? event['delta'] : {};
  const text = [body['text'], body['partial_json'], body['thinking']].find((v): v is string => typeof v === 'string');
  return text === undefined ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The wait in ms before each event. `message_start` and `ping` go out at once, as the response
 * begins; the first event after them waits `firstTokenMs`; each content delta then waits as long
 * as its tokens take at `tokensPerSecond`, so a block's stop goes out when its last token would.
 */
export function waitsBefore(events: readonly Event[], pace: Pace): number[] {
  let first = true;
  return events.map((event) => {
    if (event.type === 'message_start' || event.type === 'ping') return 0;
    const latency = first ? pace.firstTokenMs : 0;
    first = false;
    const tokens = event.type === 'content_block_delta' ? deltaTokens(event) : 0;
    return latency + (tokens * 1000) / pace.tokensPerSecond;
  });
}
