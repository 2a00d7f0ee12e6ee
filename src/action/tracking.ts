import type { Todo } from '../core/todo.js';
import type { GitHub } from '../github/client.js';
import { commentPlace, runMarker, TrackingComment, type CommentDeps, type CommentPlace, type IssueComment } from '../github/comments.js';
import type { GitHubEvent } from '../github/event.js';
import type { WriterIdentity } from '../github/identity.js';
import { react } from '../github/reactions.js';
import { statusOf } from '../github/status.js';
import type { Trigger } from '../github/trigger.js';
import { TRACKING_MARKER } from '../core/markers.js';
import { COMMENT_LIMIT, finalComment, progressComment, type FinalReport } from '../report/comment.js';
import type { Redactor } from '../secrets/redactor.js';
import type { TaskEvents } from '../session/run.js';
import { describeToolCall } from '../tools/catalog.js';
import type { ActionIo } from './io.js';

export interface TrackingInput {
  gh: GitHub;
  /** Who the action writes as: a re-run takes up only a marked comment that identity wrote. */
  identity: WriterIdentity;
  owner: string;
  name: string;
  event: GitHubEvent;
  trigger: Trigger;
  io: ActionIo;
  redactor: Redactor;
  runId: string;
  runUrl: string;
  startedAt: number;
  /** The thread's comments, already being listed: a re-run finds its comment among them. */
  comments?: Promise<IssueComment[]>;
  /** The hidden marker that finds the comment again; by default one per workflow run. */
  marker?: string;
  /** sticky-comment: the thread's newest tracking comment of the action is taken up, whichever run wrote it. */
  sticky?: boolean;
  /** The token as a refusal names it (its input): `the github-token` by default. */
  credential?: string;
}

/** The tracking comment of one run and the 👀 reaction: created early, edited as the run goes. */
export class Tracking {
  /** Created while the context is read and the loop starts; progress waits for it, the first request does not. */
  private ready: Promise<TrackingComment | null> = Promise.resolve(null);
  private comment: TrackingComment | null = null;
  /** Where the comment goes and how it is written, once started; null for a run with no thread. */
  private place: { at: CommentPlace; deps: CommentDeps } | null = null;
  private reaction: Promise<void> = Promise.resolve();
  private readonly marker: string;
  private todos: Todo[] = [];
  private steps = 0;
  private costUsd = 0;
  /** Calls the rules or hooks refused, for the final report: a maintainer tunes the rules from it. */
  readonly refused: { count: number; first: { tool: string; reason: string }[] } = { count: 0, first: [] };

  constructor(private readonly t: TrackingInput) {
    // Every tracking comment starts with TRACKING_MARKER: as the marker it finds the newest of any run's.
    this.marker = t.marker ?? (t.sticky ? TRACKING_MARKER : runMarker(t.runId));
  }

  /** The comment's address once it exists, else ''. */
  get url(): string {
    return this.comment?.url ?? '';
  }

  /** Starts the comment, then the reaction: writes go out one at a time, and the comment matters more. */
  start(): void {
    const { gh, identity, owner, name, event, trigger, io, redactor, comments } = this.t;
    const place = commentPlace(event, trigger);
    const deps = { gh, identity, owner, repo: name, redact: (t: string) => redactor.redact(t), log: io.warning };
    if (place) this.place = { at: place, deps };
    const early = { ...deps, ...(comments ? { comments } : {}) };
    this.ready = place ? TrackingComment.start(early, place, this.marker, this.progressBody('Reading the request')) : Promise.resolve(null);
    this.ready.then((c) => (this.comment = c)).catch(() => undefined);
    this.reaction = this.ready
      .catch(() => null)
      .then(() => react(gh, owner, name, trigger))
      .catch((e: unknown) => io.warning(`could not add a reaction: ${String(e)}`));
  }

  private withMarker(body: string): string {
    return body.includes(this.marker) ? body : `${body}\n${this.marker}`;
  }

  private progressBody(currentStep: string | null): string {
    const { runUrl, trigger, startedAt } = this.t;
    const { todos, steps, costUsd } = this;
    return this.withMarker(progressComment({ runUrl, task: trigger.task, todos, currentStep, steps, costUsd, startedAt, now: Date.now() }));
  }

  private progress(currentStep: string | null): void {
    void this.ready.then((c) => c?.update(this.progressBody(currentStep))).catch(() => undefined);
  }

  /** The loop's progress, for the log and the comment. */
  events(): TaskEvents {
    const { io, redactor } = this.t;
    return {
      onTodos: (todos) => {
        this.todos = todos;
        this.progress(null);
      },
      onToolStart: (call) => {
        const line = `${call.name} ${describeToolCall(call.name, call.input)}`.trim();
        io.info(redactor.redact(`→ ${line}`));
        this.progress(line);
      },
      onStep: (s) => {
        this.steps = s.step;
        this.costUsd = s.totalCostUsd;
      },
      onNotice: (m) => io.info(redactor.redact(m)),
      onRefusal: (call, reason) => {
        this.refused.count++;
        if (this.refused.first.length < 5) this.refused.first.push({ tool: call.name, reason });
        io.info(redactor.redact(`✗ ${call.name} refused: ${reason}`));
      },
    };
  }

  /** The comment once it exists; if it could not be made, the summary and outputs still report the run. */
  private async settled(): Promise<TrackingComment | null> {
    try {
      this.comment = await this.ready;
    } catch (error) {
      this.t.io.warning(
        `the tracking comment could not be created: ${this.t.redactor.redact(error instanceof Error ? error.message : String(error))}`,
      );
      this.comment = null;
    }
    await this.reaction;
    return this.comment;
  }

  /**
   * The final text, in place of the progress; a comment that could not be made at the start is made
   * now, with the final text (or found, if it was made after all). Resolves with what did not reach
   * GitHub, in words, or null.
   */
  async finish(report: FinalReport): Promise<string | null> {
    const comment = await this.settled();
    if (!this.place) return null;
    const body = this.withMarker(finalComment(report, COMMENT_LIMIT - this.marker.length - 1));
    try {
      if (comment) await comment.finish(body);
      else this.comment = await TrackingComment.start(this.place.deps, this.place.at, this.marker, body);
      return null;
    } catch (error) {
      return this.missing(error, comment !== null);
    }
  }

  /** The undelivered entry for a final comment GitHub did not take. */
  private missing(error: unknown, created: boolean): string {
    const what = created ? 'the final comment (the tracking comment still shows progress)' : 'the tracking comment (never created)';
    if (statusOf(error) === 401) {
      return `${what}: GitHub refused ${this.t.credential ?? 'the github-token'} (401 Bad credentials): the token expired or was revoked during the run`;
    }
    const why = this.t.redactor.redact(error instanceof Error ? error.message : String(error));
    this.t.io.warning(`posting ${what} failed: ${why}`);
    return `${what}: ${why}`;
  }
}
