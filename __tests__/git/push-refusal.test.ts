import { pushRefusal } from '../../src/git/push-refusal.js';

/** What git printed, as the error safeGit throws carries it. */
const failed = (...lines: string[]) => new Error(`${lines.join('\n')}\ngit exited with code 1`);

describe('why a push was refused', () => {
  it.each([
    [' ! [rejected]        HEAD -> fix (fetch first)'],
    [' ! [rejected]        HEAD -> fix (non-fast-forward)'],
    [' ! [rejected]        refs/agent-action/threads/7 (stale info)'],
    [' ! [remote rejected] HEAD -> fix (failed to update ref)'],
    [" ! [remote rejected] fix -> fix (cannot lock ref 'refs/heads/fix': is at 1a2b3c but expected 4d5e6f)"],
    [' ! [remote rejected] fix -> fix (incorrect old value provided)'],
    ["remote: error: cannot lock ref 'refs/heads/fix': is at 1a2b3c but expected 4d5e6f"],
  ])('the branch moved on: %s', (line) => {
    expect(pushRefusal(failed('To https://github.com/o/r', line))).toBe('behind');
  });

  it.each([
    ['remote: Internal Server Error', ' ! [remote rejected] HEAD -> fix (Internal Server Error)'],
    ['error: RPC failed; HTTP 500 curl 22 The requested URL returned error: 500', 'fatal: the remote end hung up unexpectedly'],
    ['error: RPC failed; HTTP 502 curl 22 The requested URL returned error: 502'],
    ["fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 503"],
    ['send-pack: unexpected disconnect while reading sideband packet', 'fatal: the remote end hung up unexpectedly'],
    ["fatal: unable to access 'https://github.com/o/r/': Could not resolve host: github.com"],
    ["fatal: unable to access 'https://github.com/o/r/': Failed to connect to github.com port 443: Connection timed out"],
  ])('the server or the connection failed: %s', (...lines) => {
    expect(pushRefusal(failed(...lines))).toBe('transient');
  });

  it.each([
    [
      'remote: error: GH006: Protected branch update failed for refs/heads/main.',
      ' ! [remote rejected] main -> main (protected branch hook declined)',
    ],
    [
      'remote: Permission to o/r.git denied to github-actions[bot].',
      "fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 403",
    ],
    ["fatal: Authentication failed for 'https://github.com/o/r/'"],
    [' ! [remote rejected] HEAD -> fix (pre-receive hook declined)'],
    ["fatal: '/tmp/nowhere.git' does not appear to be a git repository", 'fatal: Could not read from remote repository.'],
  ])('no retry can help: %s', (...lines) => {
    expect(pushRefusal(failed(...lines))).toBe('final');
  });
});
