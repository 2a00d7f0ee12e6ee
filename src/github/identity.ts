import type { GitHub } from './client.js';
import { statusOf } from './status.js';

/** The login GitHub credits with what `GITHUB_TOKEN` (the Actions app's installation token) writes. */
export const ACTIONS_BOT = 'github-actions[bot]';

/** GitHub's documented prefix of installation tokens (`GITHUB_TOKEN` among them): no user stands behind one. */
const INSTALLATION_TOKEN = /^ghs_/;

/**
 * Who the action writes as: the author of its comments and reviews. A hidden marker counts only
 * on what this author wrote; anyone can type a marker. Found once per run; null when it could not
 * be found, and then nothing counts as the action's own (it never edits or trusts a stranger's text).
 */
export class WriterIdentity {
  private constructor(private readonly found: Promise<string | null>) {
    found.catch(() => undefined);
  }

  /** A login known without asking (an App's bot, whose slug the App's token exchange knows). */
  static known(login: string): WriterIdentity {
    return new WriterIdentity(Promise.resolve(login));
  }

  /**
   * The token's identity: an installation token writes as `github-actions[bot]` (known from the
   * prefix, no request; `GET /user` answers 403 for such tokens and is asked only when the prefix
   * says nothing); a personal token writes as its user, which `GET /user` names.
   */
  static ofToken(gh: GitHub, token: string, log?: (message: string) => void): WriterIdentity {
    if (INSTALLATION_TOKEN.test(token)) return WriterIdentity.known(ACTIONS_BOT);
    const asked = gh.rest.users.getAuthenticated().then(
      ({ data }) => data.login,
      (error: unknown) => {
        if (statusOf(error) === 403) return ACTIONS_BOT;
        log?.(`could not find who the token writes as (${String(statusOf(error) ?? error)}); no earlier comment counts as the action's`);
        return null;
      },
    );
    return new WriterIdentity(asked);
  }

  /** The login, or null when unknown. */
  login(): Promise<string | null> {
    return this.found;
  }

  /** Whether `author` is the action's identity (logins are case-insensitive); false while unknown. */
  async wrote(author: { login?: string | null } | null | undefined): Promise<boolean> {
    return sameLogin(author?.login, await this.found);
  }
}

export function sameLogin(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}
