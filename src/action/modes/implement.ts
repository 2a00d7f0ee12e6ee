import type { GitHub } from '../../github/client.js';
import type { Trigger } from '../../github/trigger.js';
import { taskPrompt } from '../../prompt/task.js';
import type { Redactor } from '../../secrets/redactor.js';
import type { CredentialCheck } from '../../secrets/credential-check.js';
import type { Delivery } from '../deliver.js';
import type { ActionIo } from '../io.js';
import { load } from '../lazy.js';
import { whereNote } from '../plan.js';
import type { ActionSettings } from '../inputs.js';
import type { Mode } from './mode.js';
import type { Identity } from '../../git/names.js';
import type { WriterIdentity } from '../../github/identity.js';
import { credentialName } from '../access.js';

export interface ImplementInput {
  settings: ActionSettings;
  trigger: Trigger;
  gh: GitHub;
  owner: string;
  name: string;
  serverUrl: string;
  /** The comment, issue or run that asked, for the commit trailer and the pull request. */
  requestUrl: string;
  io: ActionIo;
  redactor: Redactor;
  /** Credentials files in the workspace: never committed. */
  credentials: CredentialCheck;
  /** Who the commits are by; github-actions[bot] when absent. */
  committer?: Identity;
  /** Who the action writes as: with commit-signing, whether GitHub can sign its commits. */
  identity?: WriterIdentity;
}

/** The agent changes the code: the work is committed and pushed, or opened as a pull request. */
export function implementMode(o: ImplementInput): Mode {
  const { settings, trigger, redactor, io } = o;
  return {
    name: 'implement',
    tools: (base) => base,
    prompt: (context, plan) => taskPrompt(context, whereNote(plan)),
    async deliver(result, { plan, git }): Promise<Delivery> {
      try {
        const { deliver } = await load.deliver();
        return await deliver({
          repo: git.repo,
          pushRepo: git.netRepo,
          gh: o.gh,
          owner: o.owner,
          name: o.name,
          serverUrl: o.serverUrl,
          plan,
          task: trigger.task,
          requester: trigger.requester,
          requestUrl: o.requestUrl,
          pullRequest: settings.pullRequest,
          summary: redactor.redact(result.result),
          branchPrefix: settings.branchPrefix,
          allowWorkflowChanges: settings.allowWorkflowChanges,
          leaveOut: (paths) => o.credentials.leftOut(paths),
          redact: (t) => redactor.redact(t),
          log: (m) => io.warning(redactor.redact(m)),
          ...(o.committer ? { committer: o.committer } : {}),
          commitSigning: settings.commitSigning,
          info: (m) => io.info(redactor.redact(m)),
          credential: credentialName(settings),
          ...(o.identity ? { writer: () => o.identity!.login() } : {}),
        });
      } catch (error) {
        // A failed push still leaves the diff for the report: paid-for work is never lost silently.
        const why = redactor.redact(error instanceof Error ? error.message : String(error));
        io.warning(`delivering the changes failed: ${why}`);
        const secret = await o.credentials.leftOut(result.changedFiles).catch(() => []);
        const diff = await git.repo.diff({ exclude: secret.map((f) => f.path) }).catch(() => '');
        return { changedFiles: result.changedFiles, diff, diffStat: '', pushed: false, note: `Delivering the changes failed: ${why}` };
      }
    },
  };
}
