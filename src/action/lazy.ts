// Modules the action needs only once a run is authorized, loaded while GitHub or the model is
// answering rather than before the first request: a refused or skipped trigger never parses them.

export const load = {
  credentials: () => import('../git/credentials.js'),
  deliver: () => import('./deliver.js'),
  repo: () => import('../git/repo.js'),
  sandbox: () => import('../sandbox/index.js'),
};
