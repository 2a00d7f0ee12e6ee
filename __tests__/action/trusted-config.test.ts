import { readRepoConfig } from '../../src/action/trusted-config.js';
import { createGitHub } from '../../src/github/client.js';
import { startGitHubSim, type GitHubSim } from '../../test-support/github-sim.js';

const TOKEN = 'ghs_simtoken';
const where = { owner: 'o', repo: 'r' };
const sims: GitHubSim[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function read(files: Record<string, string>) {
  const sim = await startGitHubSim({ ...where, token: TOKEN, permissions: {}, files: { main: files } });
  sims.push(sim);
  const config = await readRepoConfig(createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 }), where, 'main', 'base branch');
  const asked = sim.requests
    .map((r) => (r.path === '/repos/o/r/contents' ? '(root)' : decodeURIComponent(r.path.replace('/repos/o/r/contents/', ''))))
    .sort();
  return { sim, config, asked };
}

const SETTINGS = JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } });

describe('readRepoConfig', () => {
  it('asks for nothing but the root listing when the repository has no .claude folder and no .mcp.json', async () => {
    const { config, asked } = await read({ 'README.md': 'hi\n' });
    expect(asked).toEqual(['(root)']);
    expect(config.settings).toBeNull();
    expect(config.extensions.commands).toEqual([]);
    expect(config.mcpJson).toBeNull();
  });

  it('asks only for what the .claude listing holds', async () => {
    const { config, asked } = await read({ '.claude/settings.json': SETTINGS, '.mcp.json': '{"mcpServers":{}}' });
    expect(asked).toEqual(['(root)', '.claude', '.claude/settings.json', '.mcp.json']);
    expect(config.settings?.settings.permissions.deny).toEqual(['Bash(curl:*)']);
    expect(config.mcpJson).toBe('{"mcpServers":{}}');
  });

  it('lists a folder of .claude that is there and reads what it holds', async () => {
    const { config, asked } = await read({ '.claude/commands/ship.md': 'Ship it.\n' });
    expect(asked).toEqual(['(root)', '.claude', '.claude/commands', '.claude/commands/ship.md']);
    expect(config.extensions.commands.map((c) => [c.name, c.body])).toEqual([['ship', 'Ship it.']]);
  });

  it('asks for each path when the root listing fails', async () => {
    const sim = await startGitHubSim({ ...where, token: TOKEN, permissions: {}, files: { main: { '.claude/settings.json': SETTINGS } } });
    sims.push(sim);
    sim.fail({ path: /contents$/, status: 403, message: 'Resource not accessible by integration' });
    const config = await readRepoConfig(createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 }), where, 'main', 'base branch');
    expect(config.settings?.settings.permissions.deny).toEqual(['Bash(curl:*)']);
    expect(sim.requests.map((r) => r.path)).toContain('/repos/o/r/contents/.mcp.json');
  });

  it('fails rather than runs without the repository rules when the listing fails', async () => {
    const sim = await startGitHubSim({ ...where, token: TOKEN, permissions: {}, files: { main: { '.claude/settings.json': SETTINGS } } });
    sims.push(sim);
    sim.fail({ path: /contents\/\.claude$/, status: 403, message: 'Resource not accessible by integration' });
    const gh = createGitHub({ token: TOKEN, baseUrl: sim.url, retryBaseMs: 1 });
    await expect(readRepoConfig(gh, where, 'main', 'base branch')).rejects.toMatchObject({ status: 403 });
  });
});
