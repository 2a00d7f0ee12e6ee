import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { readSettings, SettingsError } from '../../src/action/inputs.js';

const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? (name === 'github-token' ? 'ghs_x' : '');

describe('the inputs max-parallel-agents and stream-idle-timeout-seconds', () => {
  it('default to 4 and 60, as action.yml says, and are read when set', () => {
    expect(readSettings(inputs({}))).toMatchObject({ maxParallelAgents: 4, streamIdleTimeoutSeconds: 60 });
    const set = readSettings(inputs({ 'max-parallel-agents': '2', 'stream-idle-timeout-seconds': '5' }));
    expect(set).toMatchObject({ maxParallelAgents: 2, streamIdleTimeoutSeconds: 5 });
    const declared = (parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs;
    expect(declared['max-parallel-agents']?.default).toBe('4');
    expect(declared['stream-idle-timeout-seconds']?.default).toBe('60');
  });

  it('fail the step with a message naming the input', () => {
    expect(() => readSettings(inputs({ 'max-parallel-agents': '0' }))).toThrow(SettingsError);
    expect(() => readSettings(inputs({ 'max-parallel-agents': '0' }))).toThrow(/input max-parallel-agents/);
    expect(() => readSettings(inputs({ 'stream-idle-timeout-seconds': '-1' }))).toThrow(/input stream-idle-timeout-seconds/);
  });
});
