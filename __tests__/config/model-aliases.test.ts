import { DEFAULT_MODEL, MODEL_ALIASES, modelIdOf } from '../../src/config/loop-settings.js';

describe("Claude Code's model aliases", () => {
  test('sonnet, opus and haiku name a model of their family; any case', () => {
    expect(modelIdOf('sonnet')).toBe(DEFAULT_MODEL);
    expect(modelIdOf('Opus')).toBe(MODEL_ALIASES['opus']);
    expect(modelIdOf('haiku')).toMatch(/^claude-haiku-/);
  });

  test('inherit and default are the run’s own model; an id stays as written', () => {
    expect(modelIdOf('inherit')).toBeUndefined();
    expect(modelIdOf('default')).toBeUndefined();
    expect(modelIdOf('claude-opus-4-5-20251101')).toBe('claude-opus-4-5-20251101');
  });
});
