import type { Model } from '../core/model.js';
import type { ToolSet, ToolSpec } from '../core/tools.js';

/** A ToolSet whose code loads on first use, or earlier when preload() is called. */
export interface LazyToolSet extends ToolSet {
  preload(): void;
}

/**
 * Offers the specs at once and loads the tools behind them only when needed: the first request
 * to the model needs the specs, not the tools' code.
 */
export function lazyToolSet(specs: readonly ToolSpec[], load: () => Promise<ToolSet>): LazyToolSet {
  let loading: Promise<ToolSet> | undefined;
  const get = () => (loading ??= load());
  const readOnly = new Set(specs.filter((s) => s.readOnly).map((s) => s.name));
  return {
    specs: () => specs,
    isReadOnly: (name) => readOnly.has(name),
    // A failure to load is not lost: it is reported by the first call that needs the tools.
    preload: () => void get().catch(() => undefined),
    async execute(call, signal) {
      try {
        return await (await get()).execute(call, signal);
      } catch (error) {
        return { isError: true, content: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

/**
 * Starts loading the tools once a response has begun: the model is then thinking and the process
 * has nothing better to do, whereas loading earlier would delay the first request.
 */
export function preloadWhileAnswering(model: Model, tools: LazyToolSet): Model {
  return {
    id: model.id,
    ...(model.worstCaseCostUsd ? { worstCaseCostUsd: model.worstCaseCostUsd.bind(model) } : {}),
    send: (request) =>
      model.send({
        ...request,
        onConnect: () => {
          tools.preload();
          request.onConnect?.();
        },
      }),
  };
}
