import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Sizes of what the action and the CLI load, from the committed dist/. */
export function bundleSize(): [string, number][] {
  const sizes: [string, number][] = [];
  let total = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else {
        total += st.size;
        if (name.endsWith('.js')) sizes.push([path, st.size]);
      }
    }
  };
  walk('dist');
  sizes.push(['dist/ in all', total]);
  return sizes;
}
