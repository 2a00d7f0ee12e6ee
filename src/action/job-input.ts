import type { Model } from '../core/index.js';
import type { GitHub } from '../github/client.js';
import type { GitHubEvent } from '../github/event.js';
import type { WriterIdentity } from '../github/identity.js';
import type { Trigger } from '../github/trigger.js';
import type { Identity } from '../git/names.js';
import type { Redactor } from '../secrets/redactor.js';
import type { CredentialCheck } from '../secrets/credential-check.js';
import type { AnswerSchema } from '../structured/schema.js';
import type { EarlyContext } from './early-context.js';
import type { ActionIo } from './io.js';
import type { Git } from './plan.js';
import type { RunnerEnv } from './runner.js';
import type { PrepareSandbox } from './sandbox.js';
import type { ActionSettings } from './inputs.js';
import type { Thread } from './thread.js';

/** What one authorized run is given: the event and its trigger, GitHub, the workspace's git, the inputs, the secrets' redactor. */
export interface JobInput {
  early: EarlyContext;
  /** The workspace's git and the thread's earlier conversation, already being read. */
  git: Promise<Git>;
  thread: Thread;
  settings: ActionSettings;
  runner: RunnerEnv;
  env: NodeJS.ProcessEnv;
  event: GitHubEvent;
  trigger: Trigger;
  gh: GitHub;
  /** Who the action writes as: only that author's comments and reviews are its own. */
  identity: WriterIdentity;
  io: ActionIo;
  redactor: Redactor;
  /** The workspace's credentials files: refused to the tools, left out of the commit. */
  credentials: CredentialCheck;
  signal: AbortSignal;
  apiKey: string;
  startedAt: number;
  model?: Model;
  prepareSandbox?: PrepareSandbox;
  answerSchema?: AnswerSchema | undefined;
  /** Who the commits are by, when not github-actions[bot] (an App's bot). */
  committer?: Identity;
}
