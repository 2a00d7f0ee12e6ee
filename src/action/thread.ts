import { conversationFromStore, conversationToStore, type StoredConversation } from '../agent/carry-over.js';
import type { Message } from '../core/index.js';
import { BOT_IDENTITY } from '../git/names.js';
import { gitErrorLine } from '../git/safe.js';
import type { Trigger } from '../github/trigger.js';
import type { Redactor } from '../report/redact.js';
import type { ActionIo } from './io.js';
import type { Git } from './plan.js';

/** Where a thread's conversation lives in the repository; delete it with `git push origin :<ref>`. */
export const threadRef = (n: number) => `refs/agent-action/threads/${n}`;
const FILE = 'conversation.json';
/** What is written: about a quarter of that in tokens, well inside any model's context. */
export const STORED_BYTES = 256 * 1024;
/** What is read back: a larger file was not written by the action and is left alone. */
const READ_BYTES = 1024 * 1024;

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

  /** Stores the run's conversation for the next request in this thread; a failure is logged. */
  async save(messages: readonly Message[]): Promise<void> {
    if (this.number === null || !this.o.enabled || messages.length === 0) return;
    const ref = threadRef(this.number);
    try {
      const { runs } = await this.earlier;
      const text = conversationToStore(messages, {
        redact: (s) => this.o.redactor.redact(s),
        maxBytes: STORED_BYTES,
        runs: [...runs, { url: this.o.runUrl, at: new Date().toISOString() }],
      });
      const store = (await this.o.git).netRepo.refStore();
      const message = `agent-action: the conversation of #${this.number}`;
      await store.write(ref, FILE, text, { expected: this.leased, message, identity: BOT_IDENTITY });
    } catch (error) {
      this.log(`the conversation could not be stored in ${ref} (${gitErrorLine(error)}); the next request here starts afresh`);
    }
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
