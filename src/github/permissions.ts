import type { Actor } from './event.js';
import type { GitHub } from './client.js';
import { statusOf } from './status.js';

export interface Authorization {
  allowed: boolean;
  /** Why, in words, for the log and the outputs. */
  reason: string;
}

const WRITERS = new Set(['admin', 'maintain', 'write']);

export function isBot(actor: Actor): boolean {
  return actor.type === 'Bot' || actor.login.endsWith('[bot]');
}

/**
 * Who may start a run: humans with write, maintain or admin permission on the repository, and
 * bots listed by name in allowed-bots. Anything else is refused before any model call.
 */
export async function authorize(
  gh: GitHub,
  repo: { owner: string; name: string },
  actor: Actor | null,
  allowedBots: readonly string[],
): Promise<Authorization> {
  if (!actor) return { allowed: true, reason: 'started by the workflow itself' };
  if (isBot(actor)) {
    const login = actor.login.toLowerCase();
    const listed = allowedBots.some((b) => b.toLowerCase() === login || `${b.toLowerCase()}[bot]` === login);
    return listed
      ? { allowed: true, reason: `bot ${actor.login} is listed in allowed-bots` }
      : { allowed: false, reason: `${actor.login} is a bot not listed in allowed-bots` };
  }
  try {
    const { data } = await gh.rest.repos.getCollaboratorPermissionLevel({ owner: repo.owner, repo: repo.name, username: actor.login });
    const permission = data.role_name && WRITERS.has(data.role_name) ? data.role_name : data.permission;
    return WRITERS.has(permission)
      ? { allowed: true, reason: `${actor.login} has ${permission} permission` }
      : { allowed: false, reason: `${actor.login} has ${permission} permission; write, maintain or admin is needed` };
  } catch (error) {
    if (statusOf(error) === 404) return { allowed: false, reason: `${actor.login} is not a collaborator` };
    throw error;
  }
}
