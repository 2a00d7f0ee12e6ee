import {
  conversationFromStore,
  conversationToStore,
  ownTurns,
  withRunAppended,
  type StoredConversation,
  type StoredRun,
} from '../agent/carry-over.js';
import type { Message } from '../core/index.js';
import { BOT_IDENTITY } from '../git/names.js';
import { pushRefusal } from '../git/push-refusal.js';
import { gitErrorLine } from '../git/safe.js';
import type { Trigger } from '../github/trigger.js';
import type { Redactor } from '../secrets/redactor.js';
import type { ActionIo } from './io.js';
import type { Git } from './plan.js';

/** Where a thread's conversation lives in the repository; delete it with `git push origin :<ref>`. */
export const threadRef = (n: number) => `refs/agent-action/threads/${n}`;
const FILE = 'conversation.json';
/** What is written: about a quarter of that in tokens, well inside any model's context. */
export const STORED_BYTES = 256 * 1024;
/** What is read back: a larger file was not written by the action and is left alone. */
const READ_BYTES = 1024 * 1024;
/** Writes of one run's conversation, when other runs keep storing theirs first or the server fails. */
export const STORE_ATTEMPTS = 4;
const STORE_RETRY_MS = 500;
/** What is true after a write that failed for good: the ref is as another run or nobody left it. */
const NOT_STORED = "this run's turns are not in it, and the next request here continues from what it holds";

/** What the next write stores and the ref it expects to replace. */
interface Pending {
  messages: readonly Message[];
  runs: StoredRun[];
  sha: string | null;
}
type Retry = 'done' | 'again';
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Earlier {
  messages: Message[];
  runs: StoredConversation['runs'];
}

export interface ThreadInput {
  git: Promise<Git>;
  trigger: Trigger;
  enabled: boolean;
  io: ActionIo;
  redactor: Redactor;
  runUrl: string;
  /** Waits before a write is tried again after a server failure; tests pass one that does not. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The conversation of an issue or pull request across runs. Reading it starts at once and runs
 * alongside the checkout; whatever goes wrong (nothing stored, no access, a corrupt or oversized
 * file) is one log line and a fresh start, never a failed run.
 */
export class Thread {
  readonly earlier: Promise<Earlier>;
  private readonly number: number | null;
  private leased: string | null = null;

  constructor(private readonly o: ThreadInput) {
    // A review is of one head, with the earlier comments in its prompt: it neither reads nor writes the thread.
    this.number = o.trigger.target.type === 'repo' || o.trigger.mode === 'review' ? null : o.trigger.target.number;
    this.earlier = this.load();
  }

  private log(message: string): void {
    this.o.io.info(this.o.redactor.redact(`agent-action: ${message}`));
  }

  private async load(): Promise<Earlier> {
    const none: Earlier = { messages: [], runs: [] };
    if (this.number === null || !this.o.enabled) return none;
    const ref = threadRef(this.number);
    try {
      const read = await (await this.o.git).netRepo.refStore().read(ref, FILE, READ_BYTES);
      if ('missing' in read) {
        if (read.missing === 'too-large')
          this.log(`the conversation in ${ref} is ${read.bytes} bytes, more than it may be: starting afresh`);
        return none;
      }
      this.leased = read.sha;
      const parsed = conversationFromStore(read.text);
      if ('invalid' in parsed) {
        this.log(`the conversation in ${ref} could not be read (${parsed.invalid}): starting afresh`);
        return none;
      }
      this.log(`continuing the conversation in ${ref}: ${parsed.messages.length} messages from ${parsed.runs.length} earlier runs`);
      return parsed;
    } catch (error) {
      this.log(`the conversation in ${ref} could not be fetched (${gitErrorLine(error)}): starting afresh`);
      return none;
    }
  }

  /**
   * Stores the run's conversation for the next request in this thread. The write is a
   * compare-and-swap on the ref: when another run stored first, what it stored is read again and
   * this run's own turns go after it; a server failure is tried again after a pause. A write
   * that still fails is logged.
   */
  async save(messages: readonly Message[]): Promise<void> {
    if (this.number === null || !this.o.enabled || messages.length === 0) return;
    const ref = threadRef(this.number);
    const run: StoredRun = { url: this.o.runUrl, at: new Date().toISOString() };
    try {
      const earlier = await this.earlier;
      const own = ownTurns(messages, earlier.messages);
      let next: Pending | null = { messages, runs: [...earlier.runs, run], sha: this.leased };
      for (let attempt = 1; next; attempt++) {
        const retry: Retry = await this.write(ref, next).then(
          () => 'done',
          (error: unknown) => this.retryAfter(error, attempt),
        );
        if (retry === 'done') return;
        next = await this.reread(ref, own, run);
      }
    } catch (error) {
      this.log(`the conversation could not be stored in ${ref} (${gitErrorLine(error)}); ${NOT_STORED}`);
    }
  }

  private async write(ref: string, next: Pending): Promise<void> {
    const text = conversationToStore(next.messages, {
      redact: (s) => this.o.redactor.redact(s),
      maxBytes: STORED_BYTES,
      runs: next.runs,
    });
    const store = (await this.o.git).netRepo.refStore();
    const message = `agent-action: the conversation of #${this.number}`;
    await store.write(ref, FILE, text, { expected: next.sha, message, identity: BOT_IDENTITY });
  }

  /** After a failed write: whether to try again (after a pause for a server failure), or rethrow. */
  private async retryAfter(error: unknown, attempt: number): Promise<Retry> {
    const refusal = pushRefusal(error);
    if (refusal === 'final' || attempt >= STORE_ATTEMPTS) throw error;
    this.log(`storing the conversation failed (${gitErrorLine(error)}); reading it again and retrying`);
    if (refusal === 'transient') await (this.o.sleep ?? defaultSleep)(STORE_RETRY_MS * attempt);
    return 'again';
  }

  /** What is stored now, with this run's turns after it; null when it already holds them. */
  private async reread(ref: string, own: readonly Message[], run: StoredRun): Promise<Pending | null> {
    const read = await (await this.o.git).netRepo.refStore().read(ref, FILE, READ_BYTES);
    if ('missing' in read) {
      if (read.missing === 'too-large') throw new Error(`${ref} now holds ${read.bytes} bytes, more than it may`);
      // Deleted meanwhile: this run's turns start it again.
      return { messages: [...own], runs: [run], sha: null };
    }
    const parsed = conversationFromStore(read.text);
    // A store that does not parse is replaced, as the first write would have replaced it.
    const stored = 'invalid' in parsed ? { messages: [], runs: [] } : parsed;
    const merged = withRunAppended(stored, own, run);
    return merged && { ...merged, sha: read.sha };
  }
}

function earlierRuns(earlier: Earlier): string {
  const n = earlier.runs.length;
  return n === 1 ? 'an earlier run' : n > 1 ? `${n} earlier runs` : 'earlier runs';
}

/** The new request after the earlier conversation, saying what the earlier part is. */
export function followUpPrompt(prompt: string, earlier: Earlier): string {
  if (earlier.messages.length === 0) return prompt;
  const runs = earlierRuns(earlier);
  return `This is a new request in the same thread. The conversation above is from ${runs} of yours here; what it changed may already be committed. Carry on from it.\n\n${prompt}`;
}

/** For the final comment: that this run carried on earlier ones, and where that conversation is kept. */
export function followUpNote(earlier: Earlier): string | null {
  if (earlier.messages.length === 0) return null;
  const runs = earlierRuns(earlier);
  return `This run carried on the conversation of ${runs} here (\`continue-conversation: false\` starts afresh).`;
}
