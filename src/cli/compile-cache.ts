import module from 'node:module';

declare module 'node:module' {
  // @types/node declares the module as a namespace, so that is what a missing member merges into.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Module {
    /** Node 22.1 and later; undefined before. */
    const enableCompileCache: ((directory?: string) => unknown) | undefined;
  }
}

/**
 * Has Node 22+ keep the CLI's compiled code between runs, in its compile cache (under the OS temp
 * directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has none and starts as always.
 */
export function keepCompiledCode(): void {
  module.enableCompileCache?.();
}
