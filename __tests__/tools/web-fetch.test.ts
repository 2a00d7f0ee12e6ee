// WebFetch against local servers: the allowed host (`localhost`) and one that is not (127.0.0.2,
// the same server on another loopback address), whose request log says what was fetched.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostPolicy } from '../../src/network/hosts.js';
import { decide } from '../../src/tools/permissions/decide.js';
import { loadRules } from '../../src/tools/permissions/rules.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { definitionToolSet } from '../../src/tools/tool-set.js';
import { webFetchTool } from '../../src/tools/builtin/web-fetch.js';
import { Workspace } from '../../src/tools/workspace.js';

let server: Server;
let port: number;
const log: string[] = [];
let ctx: ToolContext;

beforeAll(async () => {
  server = createServer((req, res) => {
    log.push(`${req.headers.host?.split(':')[0]} ${req.url}`);
    if (req.url === '/page')
      res
        .setHeader('content-type', 'text/html')
        .end('<h1>Title</h1><p>Some <b>bold</b> and <a href="/next">a link</a>.</p><script>x()</script>');
    else if (req.url === '/same') res.writeHead(302, { location: '/page' }).end();
    else if (req.url === '/away') res.writeHead(301, { location: `http://127.0.0.2:${port}/secret` }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/huge') {
      res.setHeader('content-type', 'text/plain');
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const write = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent < 50) res.once('drain', () => (sent++, write()));
        else res.end();
      };
      res.on('error', () => undefined);
      write();
    } else if (req.url === '/slow') setTimeout(() => res.end('late'), 3000);
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((done) => server.listen(0, '0.0.0.0', done));
  port = (server.address() as { port: number }).port;
  const workspace = await Workspace.open(mkdtempSync(join(tmpdir(), 'webfetch-')), { runnerTemp: '' });
  ctx = {
    workspace,
    signal: new AbortController().signal,
    env: {},
    outputLimit: 30_000,
    fetchHosts: hostPolicy(['localhost']),
    fetchTimeoutMs: 500,
  };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

/** Through the tool set the run uses, which caps every result. */
const fetchUrl = async (url: string) => {
  const { signal: _, ...bound } = ctx;
  const set = definitionToolSet([webFetchTool], bound);
  const r = await set.execute({ id: 'f', name: 'WebFetch', input: { url, prompt: 'what is the title?' } }, ctx.signal);
  return { isError: r.isError, content: typeof r.content === 'string' ? r.content : JSON.stringify(r.content) };
};

describe('WebFetch', () => {
  test('an allowed page comes back as Markdown with the prompt, links made absolute', async () => {
    const r = await fetchUrl(`http://localhost:${port}/page`);
    expect(r.isError).toBe(false);
    expect(r.content).toContain('# Title');
    expect(r.content).toContain('Some **bold** and [a link](http://localhost:' + port + '/next).');
    expect(r.content).not.toContain('x()');
    expect(r.content).toContain('The prompt to answer from it: what is the title?');
  });

  test('a host that is not allowed is refused before anything is sent', async () => {
    const before = log.length;
    const r = await fetchUrl(`http://127.0.0.2:${port}/page`);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('127.0.0.2');
    expect(log.length).toBe(before);
  });

  test('a redirect on the same host is followed; one to another host is reported, not followed', async () => {
    expect((await fetchUrl(`http://localhost:${port}/same`)).content).toContain('# Title');
    const away = await fetchUrl(`http://localhost:${port}/away`);
    expect(away.isError).toBe(false);
    expect(away.content).toContain(`redirects (301) to another host: http://127.0.0.2:${port}/secret`);
    expect(log).not.toContain('127.0.0.2 /secret');
    const loop = await fetchUrl(`http://localhost:${port}/loop`);
    expect(loop.isError).toBe(true);
    expect(loop.content).toContain('more than 5 times');
  });

  test('schemes other than http(s) are refused', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://localhost/x', 'data:text/plain,hi']) {
      const r = await fetchUrl(url);
      expect(r.isError).toBe(true);
      expect(r.content).toContain('http:// and https:// URLs only');
    }
  });

  test('a 50 MB page is cut at 10 MB and the result capped; a slow page ends at the timeout', async () => {
    const huge = await fetchUrl(`http://localhost:${port}/huge`);
    expect(huge.isError).toBe(false);
    expect(huge.content.length).toBeLessThan(40_000);
    expect(huge.content).toContain('larger than 10 MB');
    const slow = await fetchUrl(`http://localhost:${port}/slow`);
    expect(slow.isError).toBe(true);
    expect(slow.content).toContain('did not answer within 0.5 s');
  });
});

describe('WebFetch(domain:...) rules', () => {
  const call = (url: string) => ({ id: 'w', name: 'WebFetch', input: { url, prompt: 'p' } });
  test('a deny rule refuses its host whatever allows it; an allow rule admits only its host', async () => {
    const rules = await loadRules({
      allow: [{ source: 'allowed-tools', rules: ['WebFetch'] }],
      deny: [{ source: 'disallowed-tools', rules: ['WebFetch(domain:*.evil.test)', 'WebFetch(domain:localhost)'] }],
    });
    expect(decide(call('http://localhost:8080/x'), rules, '/ws').allowed).toBe(false);
    expect(decide(call('https://a.evil.test/'), rules, '/ws').allowed).toBe(false);
    expect(decide(call('https://docs.example.com/'), rules, '/ws').allowed).toBe(true);
    const narrow = await loadRules({ allow: [{ source: 'allowed-tools', rules: ['WebFetch(domain:docs.example.com)'] }] });
    expect(decide(call('https://docs.example.com/page'), narrow, '/ws').allowed).toBe(true);
    expect(decide(call('https://example.com/'), narrow, '/ws').allowed).toBe(false);
  });

  test('a WebFetch rule takes domain:<host> only', async () => {
    await expect(loadRules({ allow: [{ source: 'allowed-tools', rules: ['WebFetch(https://x.com)'] }] })).rejects.toThrow(/domain:<host>/);
  });
});
