import type { Identity } from '../git/names.js';
import { AppAuthError, openAppSession, revokeAppSession, type AppSession } from '../github/apps.js';
import type { GitHub } from '../github/client.js';
import { WriterIdentity } from '../github/identity.js';
import type { Redactor } from '../secrets/redactor.js';
import type { ActionIo } from './io.js';
import { SettingsError, type ActionSettings } from './inputs.js';

/** What the run talks to GitHub and pushes with, and who it writes as. */
export interface Access {
  token: string;
  gh: GitHub;
  identity: WriterIdentity;
  /** The author of the action's commits; the default (github-actions[bot]) when absent. */
  committer?: Identity;
}

export interface AccessInput {
  settings: ActionSettings;
  owner: string;
  repo: string;
  /** A client for a token, at GITHUB_API_URL. */
  github: (token: string) => GitHub;
  io: ActionIo;
  redactor: Redactor;
}

/**
 * `github-token`, or with `github-app-id` and `github-app-private-key` an installation token of
 * this repository, taken the first time it is needed (an event that starts nothing takes none)
 * and revoked by close().
 */
export class GitHubAccess {
  private opened: Promise<Access> | undefined;
  private session: AppSession | undefined;

  constructor(private readonly a: AccessInput) {
    const { githubAppId, githubAppPrivateKey } = a.settings;
    if (Boolean(githubAppId) !== Boolean(githubAppPrivateKey)) {
      throw new SettingsError(
        `input ${githubAppId ? 'github-app-private-key' : 'github-app-id'}: is required with ${githubAppId ? 'github-app-id' : 'github-app-private-key'}`,
      );
    }
  }

  open(): Promise<Access> {
    return (this.opened ??= this.a.settings.githubAppId ? this.openApp() : Promise.resolve(this.ofToken()));
  }

  private ofToken(): Access {
    const { settings, io, redactor } = this.a;
    const gh = this.a.github(settings.githubToken);
    return {
      token: settings.githubToken,
      gh,
      identity: WriterIdentity.ofToken(gh, settings.githubToken, (m) => io.warning(redactor.redact(m))),
    };
  }

  private async openApp(): Promise<Access> {
    const { settings, owner, repo, io, redactor } = this.a;
    const credentials = { appId: settings.githubAppId, privateKey: settings.githubAppPrivateKey };
    const session = await openAppSession(credentials, { github: this.a.github, owner, repo }).catch((error: unknown) => {
      throw error instanceof AppAuthError ? new SettingsError(error.message) : error;
    });
    // By value: an installation token need not match the classic token pattern.
    redactor.add([session.token]);
    io.setSecret(session.token);
    this.session = session;
    io.info(`agent-action: acting as ${session.login} with an installation token of ${owner}/${repo} (expires ${session.expiresAt})`);
    const email = `${session.userId}+${session.login}@users.noreply.github.com`;
    return {
      token: session.token,
      gh: this.a.github(session.token),
      identity: WriterIdentity.known(session.login),
      committer: { name: session.login, email },
    };
  }

  /** Revokes the installation token, if one was taken. */
  async close(): Promise<void> {
    if (!this.session || !this.opened) return;
    const { gh } = await this.opened;
    await revokeAppSession(gh, (m) => this.a.io.warning(this.a.redactor.redact(m)));
  }
}

/** The input the run's token comes from, as a refusal names it. */
export function credentialName(settings: Pick<ActionSettings, 'githubAppId'>): string {
  return settings.githubAppId ? "the App's installation token (github-app-id, github-app-private-key)" : 'the github-token';
}

/** The key's lines, each a secret of its own: the runner masks line by line what it prints. */
export function privateKeySecrets(pem: string): string[] {
  if (pem === '') return [];
  const lines = pem
    .replace(/\\n/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= 16 && !l.startsWith('-----'));
  return [pem, ...lines];
}
