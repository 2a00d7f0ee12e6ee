import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redactor } from '../../src/secrets/redactor.js';
import { CredentialCheck } from '../../src/secrets/credential-check.js';
import { readCredentialFiles } from '../../src/secrets/credential-files.js';
import { readTool } from '../../src/tools/builtin/read.js';
import { executeToolCall, type ToolContext, type ToolResult } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';
import {
  SA_PRIVATE_KEY,
  SA_PRIVATE_KEY_ID,
  SUBJECT_TOKEN,
  serviceAccountKey,
  wifFileSourced,
} from '../../test-support/credential-fixtures.js';

let root: string;
let ctx: ToolContext;

/** A workspace as the action opens it: the files the environment names, and text the run's redactor knows. */
async function open(env: Record<string, string>): Promise<void> {
  const files = readCredentialFiles(env);
  const redactor = new Redactor([...files.secrets]);
  const credentials = new CredentialCheck(root, files, (text) => redactor.holdsSecret(text));
  const workspace = await Workspace.open(root, { credentials });
  ctx = { workspace, signal: new AbortController().signal, env: {}, outputLimit: 1_000_000 };
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'read-creds-')));
  await fs.writeFile(path.join(root, 'gha-creds-abc123.json'), serviceAccountKey());
  await fs.writeFile(path.join(root, 'oidc-token'), SUBJECT_TOKEN);
  await fs.writeFile(path.join(root, 'wif.json'), wifFileSourced('oidc-token'));
  await open({
    GOOGLE_APPLICATION_CREDENTIALS: path.join(root, 'gha-creds-abc123.json'),
    CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: path.join(root, 'wif.json'),
  });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function read(file_path: string): Promise<ToolResult> {
  return executeToolCall(new Map([['Read', readTool]]), 'Read', { file_path }, ctx);
}

describe('Read and credentials files', () => {
  it.each(['gha-creds-abc123.json', 'wif.json', 'oidc-token'])(
    'refuses %s, named by the environment or by the file naming it',
    async (file) => {
      const result = await read(file);
      expect(result).toMatchObject({ isError: true, content: expect.stringContaining('credentials file') });
      expect(result.content).not.toContain(SA_PRIVATE_KEY_ID);
      expect(result.content).not.toContain(SUBJECT_TOKEN);
    },
  );

  it('refuses a symlink that points at one', async () => {
    await fs.symlink('gha-creds-abc123.json', path.join(root, 'innocent.json'));
    expect(await read('innocent.json')).toMatchObject({ isError: true, content: expect.stringContaining('credentials file') });
  });

  it('refuses a file whose text holds a private key or a token the run knows, and reads the rest', async () => {
    await fs.writeFile(path.join(root, 'fixture.js'), `export const key = ${JSON.stringify(SA_PRIVATE_KEY)};\n`);
    await fs.writeFile(path.join(root, 'copy.txt'), `token: ${SUBJECT_TOKEN}\n`);
    await fs.writeFile(path.join(root, 'math.js'), 'export const add = (a, b) => a + b;\n');
    const key = await read('fixture.js');
    expect(key).toMatchObject({ isError: true, content: expect.stringContaining('it holds a private key') });
    expect(key.content).not.toContain('canaryKEY');
    expect(await read('copy.txt')).toMatchObject({ isError: true, content: expect.stringContaining('it holds a token') });
    expect(await read('math.js')).toMatchObject({ isError: false, content: expect.stringContaining('a + b') });
  });

  it('offers the name predicate Grep and Glob filter with', () => {
    expect(ctx.workspace.isCredentialFile('gha-creds-abc123.json')).toBe(true);
    expect(ctx.workspace.isCredentialFile('oidc-token')).toBe(true);
    expect(ctx.workspace.isCredentialFile('sub/gha-creds-x.json')).toBe(true);
    expect(ctx.workspace.isCredentialFile('.npmrc')).toBe(true);
    expect(ctx.workspace.isCredentialFile('math.js')).toBe(false);
  });
});
