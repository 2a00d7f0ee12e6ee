/**
 * WebFetch, as Claude Code names it: one http(s) page, HTML turned into Markdown, for the model to
 * answer its `prompt` from in its next turn (no extra model call). It runs in the action's own
 * process, outside the sandbox, so it holds itself to the hosts the run allows (`allowed-domains`
 * and `WebFetch(domain:...)` allow rules; deny rules are the permission layer's): redirects on
 * the same host are followed (5 at most), one to another host is reported, not followed.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import * as z from '../../core/schema.js';
import { defineTool, ToolError, type ToolContext } from '../tool.js';

/** What a page may weigh before the rest is left unread. */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

const schema = z.object({
  url: z.string().check(z.describe('The http(s) URL of the page.')),
  prompt: z.string().check(z.describe('What you want to learn from the page; answer it yourself from the content returned.')),
});

interface Page {
  status: number;
  type: string;
  body: Buffer;
  truncated: boolean;
  location?: string;
}

/**
 * One GET, straight to the host the URL names: a fresh agent (no keep-alive, no proxy taken from
 * the environment), the whole exchange (headers and body) held to `timeoutMs`.
 */
function get(url: URL, signal: AbortSignal, timeoutMs: number): Promise<Page> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
    };
    const req = send(url, {
      method: 'GET',
      headers: { 'user-agent': 'agent-action WebFetch', accept: 'text/html, text/*, application/json, */*;q=0.5' },
      agent: false,
      signal,
    });
    const timer = setTimeout(() => {
      const error = new ToolError(`${url.host} did not answer within ${timeoutMs / 1000} s: the page was not fetched`);
      settle(() => reject(error));
      req.destroy(error);
    }, timeoutMs);
    req.on('error', (error) =>
      settle(() => reject(error instanceof ToolError ? error : new ToolError(`fetching ${url.href} failed: ${error.message}`))),
    );
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const finish = () =>
        settle(() =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).subarray(0, MAX_PAGE_BYTES),
            truncated,
            ...(res.headers.location ? { location: res.headers.location } : {}),
          }),
        );
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_PAGE_BYTES) {
          truncated = true;
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', (error) => settle(() => reject(new ToolError(`reading ${url.href} failed: ${error.message}`))));
    });
    req.end();
  });
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`${JSON.stringify(text)} is not a URL; WebFetch takes an http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolError(`WebFetch fetches http:// and https:// URLs only, not ${url.protocol}`);
  return url;
}

const portOf = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

function checkHost(url: URL, ctx: ToolContext): void {
  if (ctx.fetchHosts?.allows(hostOf(url), portOf(url))) return;
  throw new ToolError(
    `${url.host} is not an allowed host: WebFetch reaches the hosts of allowed-domains and those a WebFetch(domain:...) allow rule names`,
  );
}

async function markdownOf(page: Page, url: URL): Promise<string> {
  const text = page.body.toString('utf8');
  if (!/html/i.test(page.type) && !/^\s*<(!doctype html|html)/i.test(text)) return text;
  const { NodeHtmlMarkdown } = await import('node-html-markdown');
  return NodeHtmlMarkdown.translate(text, {}, undefined, undefined).replace(
    /\]\((\/[^)]*)\)/g,
    (_, path: string) => `](${new URL(path, url).href})`,
  );
}

export const webFetchTool = defineTool({
  name: 'WebFetch',
  description:
    'Fetches one http(s) page of an allowed host and returns its content (HTML as Markdown), with your prompt ' +
    'beside it: answer the prompt from the content yourself. Redirects to another host are not followed; the ' +
    'result says where they point, so fetch that URL if it is what you want. Pages are cut at 10 MB.',
  schema,
  readOnly: true,
  keyArgument: 'url',
  ruleTarget: { kind: 'domain', field: 'url' },
  async run(input, ctx) {
    let url = parseUrl(input.url);
    checkHost(url, ctx);
    for (let redirects = 0; ; redirects++) {
      const page = await get(url, ctx.signal, ctx.fetchTimeoutMs ?? FETCH_TIMEOUT_MS);
      if (page.status >= 300 && page.status < 400 && page.location) {
        const next = new URL(page.location, url);
        if (next.host !== url.host || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          return `${url.href} redirects (${page.status}) to another host: ${next.href}\nIt was not followed; fetch that URL to see it.`;
        }
        if (redirects >= MAX_REDIRECTS) throw new ToolError(`${input.url} redirected more than ${MAX_REDIRECTS} times`);
        url = next;
        continue;
      }
      if (page.status >= 400) throw new ToolError(`${url.href} answered ${page.status}`);
      const content = await markdownOf(page, url);
      const cut = page.truncated ? `\n\n[The page is larger than ${MAX_PAGE_BYTES / 1024 / 1024} MB: the rest was not read.]` : '';
      return `Content of ${url.href}:\n\n${content}${cut}\n\nThe prompt to answer from it: ${input.prompt}`;
    }
  },
});
