import { chmodSync, mkdtempSync, promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * An empty file of mode 000 outside the workspace, bound over each Read-denied file: opening it
 * fails with "Permission denied" for the sandbox's user, who has no capabilities to override that,
 * and the read-only bind stops a chmod. Made on first use, removed with the sandbox.
 */
export class Placeholder {
  private dir: string | undefined;

  /** The file's path; synchronous because wrapping a command is. */
  file(): string {
    this.dir ??= mkdtempSync(path.join(os.tmpdir(), 'agent-action-denied-'));
    const file = path.join(this.dir, 'denied');
    writeFileSync(file, '', { flag: 'a' });
    chmodSync(file, 0o000);
    return file;
  }

  async remove(): Promise<void> {
    if (this.dir) await fs.rm(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
