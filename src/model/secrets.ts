import { readFileSync } from 'node:fs';
import { PROVIDER_SECRET_VARIABLES } from './registry.js';

/**
 * Every provider credential the environment holds, to redact from everything posted: the values
 * of the credential variables, and the private parts of the Google credentials file (the file's
 * path is not the secret; its contents are).
 */
export function providerSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = PROVIDER_SECRET_VARIABLES.map((name) => env[name] ?? '');
  const file = env['GOOGLE_APPLICATION_CREDENTIALS'];
  if (file) {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      for (const key of ['private_key', 'client_secret', 'refresh_token', 'private_key_id']) {
        const value = parsed[key];
        if (typeof value === 'string') values.push(value);
      }
    } catch {
      // Unreadable here means unreadable for the provider too: its own error will say so.
    }
  }
  return values.filter((v) => v.length > 0);
}
