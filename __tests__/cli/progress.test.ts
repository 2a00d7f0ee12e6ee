import { progressEvents } from '../../src/cli/progress.js';
import type { ToolCall } from '../../src/core/tools.js';

const read = (file: string): ToolCall => ({ id: file, name: 'Read', input: { file_path: file } });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CLI progress', () => {
  it('writes the tool lines of one answer in one write, in order, before any later text', async () => {
    const writes: string[] = [];
    const events = progressEvents({ write: (t) => writes.push(t) }, { quiet: false });
    events.onText?.('Looking');
    for (const f of ['a.ts', 'b.ts', 'c.ts']) events.onToolStart?.(read(f));
    expect(writes).toEqual(['Looking']);
    await tick();
    expect(writes).toEqual(['Looking', '\n→ Read a.ts\n→ Read b.ts\n→ Read c.ts\n']);
    events.onToolStart?.(read('d.ts'));
    events.onNotice?.('stopping');
    expect(writes.slice(2)).toEqual(['→ Read d.ts\n! stopping\n']);
    await tick();
    expect(writes).toHaveLength(3);
  });
});
