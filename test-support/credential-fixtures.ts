/**
 * Credentials files as the auth actions write them: a service-account key (google-github-actions/auth
 * with `credentials_json`), a workload identity federation file whose subject token is in a file,
 * and one whose token comes from the runner's OIDC URL with the request token in its headers.
 * The key is a real PEM block shape; the values are canaries a test can look for.
 */
export const SA_PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCanaryKEYline1\n' +
  'canaryKEYline2abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN\n-----END PRIVATE KEY-----\n';
export const SA_PRIVATE_KEY_ID = 'c4n4ryk3y1d0123456789abcdef0123456789abcd';
export const SUBJECT_TOKEN = 'canary-subject-token-9f8e7d6c5b4a39281706';
export const REQUEST_TOKEN = 'canaryREQUESTtoken0123456789abcdefXYZ';

export function serviceAccountKey(): string {
  return JSON.stringify(
    {
      type: 'service_account',
      project_id: 'calc-project',
      private_key_id: SA_PRIVATE_KEY_ID,
      private_key: SA_PRIVATE_KEY,
      client_email: 'agent@calc-project.iam.gserviceaccount.com',
      client_id: '1234567890',
      token_uri: 'https://oauth2.googleapis.com/token',
    },
    null,
    2,
  );
}

/** A WIF file whose subject token is read from `tokenFile`. */
export function wifFileSourced(tokenFile: string): string {
  return JSON.stringify({
    type: 'external_account',
    audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/gh',
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: 'https://sts.googleapis.com/v1/token',
    credential_source: { file: tokenFile },
  });
}

/** A WIF file as google-github-actions/auth writes it: the token from the runner's OIDC URL, the request token in a header. */
export function wifUrlSourced(): string {
  return JSON.stringify({
    type: 'external_account',
    audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/gh',
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: 'https://sts.googleapis.com/v1/token',
    credential_source: {
      url: 'https://pipelines.actions.githubusercontent.com/oidc/token?audience=x',
      headers: { Authorization: `Bearer ${REQUEST_TOKEN}` },
      format: { type: 'json', subject_token_field_name: 'value' },
    },
  });
}
