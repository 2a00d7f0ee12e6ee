import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Variables that name a credentials file: what google-github-actions/auth and
 * aws-actions/configure-aws-credentials export, and what gcloud and the AWS SDKs read.
 */
export const CREDENTIAL_FILE_VARIABLES: readonly string[] = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_GHA_CREDS_PATH',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
];

/** Tokens the runner hands the job that a credentials file may carry (the OIDC request token in a WIF file's headers). */
const TOKEN_VARIABLES: readonly string[] = ['ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_RUNTIME_TOKEN'];

/** JSON fields that hold a secret in Google's key, authorized-user and token files. */
const SECRET_FIELDS: readonly string[] = ['private_key', 'private_key_id', 'client_secret', 'refresh_token', 'access_token', 'token'];

/** Keys of an AWS shared credentials file (INI) whose values are secret. */
const AWS_SECRET_KEYS = /^\s*(aws_access_key_id|aws_secret_access_key|aws_session_token|aws_security_token)\s*=\s*(.+?)\s*$/i;

export interface CredentialFiles {
  /** Absolute path -> why it is a credential file (the variable naming it, or the file naming it). */
  readonly paths: ReadonlyMap<string, string>;
  /** The secret values they hold, to redact from everything that leaves. */
  readonly secrets: readonly string[];
}

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function parseJson(text: string): Json | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function stringsOf(value: unknown): string[] {
  return typeof value === 'string' && value.trim() !== '' ? [value] : [];
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

class Reader {
  readonly paths = new Map<string, string>();
  readonly secrets: string[] = [];

  constructor(private readonly read: (file: string) => string) {}

  /** Reads one credentials file once; an unreadable one is only remembered by path (the provider's own error will say why). */
  file(file: string, why: string): void {
    const abs = path.resolve(file);
    if (this.paths.has(abs)) return;
    this.paths.set(abs, why);
    // The tools see real paths: a workspace reached through a symlink must still match.
    const real = realPath(abs);
    if (real !== abs) this.paths.set(real, why);
    let text: string;
    try {
      text = this.read(abs);
    } catch {
      return;
    }
    const json = parseJson(text);
    if (json) this.json(json, abs);
    else if (text.split(/\r?\n/).some((line) => AWS_SECRET_KEYS.test(line))) this.ini(text);
    // Neither: a bare token (the web identity token file, a WIF subject-token file).
    else this.secrets.push(...stringsOf(text.trim()));
  }

  private json(json: Json, abs: string): void {
    for (const field of SECRET_FIELDS) this.secrets.push(...stringsOf(json[field]));
    // A workload identity federation file: the subject token is in the file or at the URL it names.
    const source = asObject(json['credential_source']);
    if (!source) return;
    const tokenFile = source['file'];
    if (typeof tokenFile === 'string' && tokenFile !== '') {
      this.file(path.resolve(path.dirname(abs), tokenFile), `the subject-token file of ${path.basename(abs)}`);
      this.subjectTokenField(source, path.resolve(path.dirname(abs), tokenFile));
    }
    for (const value of Object.values(asObject(source['headers']) ?? {})) {
      for (const header of stringsOf(value)) this.secrets.push(header, header.replace(/^\s*(Bearer|Basic|token)\s+/i, ''));
    }
  }

  /** A JSON subject-token file keeps the token in one field; that field is the secret, whatever else the file holds. */
  private subjectTokenField(source: Json, tokenFile: string): void {
    const format = asObject(source['format']);
    const field = format?.['subject_token_field_name'];
    if (format?.['type'] !== 'json' || typeof field !== 'string') return;
    try {
      this.secrets.push(...stringsOf(parseJson(this.read(tokenFile))?.[field]));
    } catch {
      // Unreadable: remembered by path above.
    }
  }

  private ini(text: string): void {
    for (const line of text.split(/\r?\n/)) {
      const match = AWS_SECRET_KEYS.exec(line);
      if (match?.[2]) this.secrets.push(match[2]);
    }
  }
}

/**
 * The credentials files the environment names, read once at start-up (the paths, and the secret
 * values they hold: a service-account key's private_key and private_key_id, a workload identity
 * file's subject token, an AWS profile's keys), with the runner's own token variables.
 */
export function readCredentialFiles(
  env: Readonly<Record<string, string | undefined>>,
  read: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): CredentialFiles {
  const reader = new Reader(read);
  for (const name of CREDENTIAL_FILE_VARIABLES) {
    const file = env[name];
    if (file) reader.file(file, `named by ${name}`);
  }
  for (const name of TOKEN_VARIABLES) reader.secrets.push(...stringsOf(env[name]));
  return { paths: reader.paths, secrets: [...new Set(reader.secrets.filter((s) => s.trim().length > 0))] };
}
