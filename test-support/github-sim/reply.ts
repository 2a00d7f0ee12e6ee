/** The simulator's reply model and GitHub's error envelope, pagination and request-field conventions. */
import type { SimState } from './state.js';
import type { SimUser } from './types.js';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  contentType?: string;
}

export type JsonObject = Record<string, unknown>;

export interface Ctx {
  method: string;
  query: Record<string, string>;
  body: unknown;
  accept: string;
  /** Path without query, as requested (for pagination links). */
  fullPath: string;
  /** Whom the request's token authenticates as: what it writes is that user's. */
  user: SimUser;
}

export type Handler = (s: SimState, ctx: Ctx, m: RegExpMatchArray) => Reply;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export const API_DOCS = 'https://docs.github.com/rest';
// GitHub rejects comment and pull request bodies longer than this.
const MAX_BODY = 65536;

export const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Bad credentials',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
  504:
    'We couldn\u2019t respond to your request in time. Sorry about that. ' +
    'Please try resubmitting your request and contact us if the problem persists.',
};

export function errorBody(status: number, message: string, documentationUrl = API_DOCS, errors?: unknown[]): JsonObject {
  // GitHub's envelope carries the status as a string.
  return { message, ...(errors ? { errors } : {}), documentation_url: documentationUrl, status: String(status) };
}

export function errorReply(status: number, message?: string, documentationUrl?: string, errors?: unknown[]): Reply {
  return { status, json: errorBody(status, message ?? STATUS_MESSAGES[status] ?? 'Error', documentationUrl, errors) };
}

export const notFound = (documentationUrl?: string): Reply => errorReply(404, 'Not Found', documentationUrl);

export function validationFailed(resource: string, field: string, code: string, message?: string, documentationUrl?: string): Reply {
  return errorReply(422, 'Validation Failed', documentationUrl, [{ resource, code, field, ...(message ? { message } : {}) }]);
}

export function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as JsonObject)[name] : undefined;
}

export const num = (s: string | undefined): number => Number.parseInt(s ?? '', 10);

export function bodyText(ctx: Ctx, resource: string, docs: string, required: boolean): string | Reply {
  const body = field(ctx.body, 'body');
  if (body === undefined && !required) return '';
  if (typeof body !== 'string') return validationFailed(resource, 'body', 'missing_field', undefined, docs);
  if (body.length > MAX_BODY) {
    return validationFailed(resource, 'body', 'custom', `body is too long (maximum is ${MAX_BODY} characters)`, docs);
  }
  return body;
}

export function paginate<T>(items: T[], ctx: Ctx, baseUrl: string): { page: T[]; link?: string } {
  const perPageRaw = Number.parseInt(ctx.query.per_page ?? '', 10);
  const perPage = Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30;
  const pageRaw = Number.parseInt(ctx.query.page ?? '', 10);
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const linkTo = (p: number): string => {
    const params = new URLSearchParams(ctx.query);
    params.set('page', String(p));
    return `${baseUrl}${ctx.fullPath}?${params.toString()}`;
  };
  const parts: string[] = [];
  if (page > 1) parts.push(`<${linkTo(Math.min(page - 1, last))}>; rel="prev"`);
  if (page < last) parts.push(`<${linkTo(page + 1)}>; rel="next"`, `<${linkTo(last)}>; rel="last"`);
  if (page > 1) parts.push(`<${linkTo(1)}>; rel="first"`);
  return parts.length > 0 ? { page: slice, link: parts.join(', ') } : { page: slice };
}

export function listReply<T>(items: T[], ctx: Ctx, baseUrl: string, render: (item: T) => unknown): Reply {
  const { page, link } = paginate(items, ctx, baseUrl);
  return { status: 200, json: page.map(render), ...(link ? { headers: { link } } : {}) };
}

export function sinceFilter<T extends { updated_at: string }>(items: T[], since: string | undefined): T[] | Reply {
  if (since === undefined) return items;
  const t = Date.parse(since);
  if (Number.isNaN(t)) return validationFailed('Issue', 'since', 'invalid');
  return items.filter((c) => Date.parse(c.updated_at) >= t);
}

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && 'status' in value && !Array.isArray(value);
}
