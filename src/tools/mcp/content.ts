/**
 * An MCP tool result as a tool outcome: text stays text, images the API accepts become image
 * blocks, everything else becomes a line of text saying what it was. Blocks are read leniently
 * (one unknown block type must not lose the rest of a result), so each is checked here.
 */
import * as z from '../../core/schema.js';
import type { ImageBlock, TextBlock } from '../../core/messages.js';
import type { ToolOutcome } from '../../core/tools.js';
import { capText } from '../output.js';

/** What `tools/call` gives back, as far as this module reads it. */
export interface McpCallResult {
  content?: unknown[] | undefined;
  isError?: boolean | undefined;
  structuredContent?: unknown;
  /** Results of protocol version 2024-10-07 and earlier. */
  toolResult?: unknown;
}

type ImageType = ImageBlock['source']['media_type'];
const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] satisfies readonly ImageType[];
/** The API refuses images over 5 MB; base64 is a third larger than the bytes it encodes. */
export const MAX_IMAGE_BASE64 = Math.floor(((5 * 1024 * 1024) / 3) * 4);
/** Images kept from one result; more would crowd the context (and the API caps images per request). */
export const MAX_IMAGES_PER_RESULT = 5;

const Text = z.object({ type: z.literal('text'), text: z.string() });
const Media = z.object({ type: z.enum(['image', 'audio']), data: z.string(), mimeType: z.string() });
const Resource = z.object({
  type: z.literal('resource'),
  resource: z.object({ uri: z.string(), mimeType: z.optional(z.string()), text: z.optional(z.string()), blob: z.optional(z.string()) }),
});
const Link = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
});

type Part = TextBlock | ImageBlock;
const TEXT_TYPE = /^text\/|^application\/(json|xml|yaml|x-yaml)\b|\+(json|xml)\b/;

function isImageType(mimeType: string | undefined): mimeType is ImageType {
  return mimeType !== undefined && IMAGE_TYPES.includes(mimeType);
}

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

/** An image block if the API takes it and there is room; otherwise a line saying why not. */
function image(data: string, mimeType: string, what: string, images: { count: number }): Part {
  if (!isImageType(mimeType)) return { type: 'text', text: `[${what} of type ${mimeType} not shown: only PNG, JPEG, GIF and WebP are]` };
  if (data.length > MAX_IMAGE_BASE64) return { type: 'text', text: `[${what} not shown: ${base64Bytes(data)} bytes, over 5 MB]` };
  if (images.count >= MAX_IMAGES_PER_RESULT)
    return { type: 'text', text: `[${what} not shown: only ${MAX_IMAGES_PER_RESULT} images per result]` };
  images.count++;
  return { type: 'image', source: { type: 'base64', media_type: mimeType, data } };
}

function resourcePart(resource: z.infer<typeof Resource>['resource'], images: { count: number }): Part {
  if (resource.text !== undefined) return { type: 'text', text: resource.text };
  const type = resource.mimeType ?? 'binary data';
  if (resource.blob !== undefined && isImageType(resource.mimeType)) return image(resource.blob, type, `image ${resource.uri}`, images);
  // A blob that says it is text is text, only encoded: the model can read it.
  if (resource.blob !== undefined && TEXT_TYPE.test(type))
    return { type: 'text', text: Buffer.from(resource.blob, 'base64').toString('utf8') };
  const size = resource.blob === undefined ? '' : `, ${base64Bytes(resource.blob)} bytes`;
  return { type: 'text', text: `[resource ${resource.uri} (${type}${size}) not shown]` };
}

function linkLine(link: z.infer<typeof Link>): string {
  const name = link.name !== undefined && link.name !== link.uri ? `${link.name} ` : '';
  const type = link.mimeType === undefined ? '' : ` (${link.mimeType})`;
  const description = link.description === undefined ? '' : `: ${link.description}`;
  return `Resource link: ${name}<${link.uri}>${type}${description}`;
}

function toPart(block: unknown, images: { count: number }): Part {
  const text = Text.safeParse(block);
  if (text.success) return { type: 'text', text: text.data.text };
  const media = Media.safeParse(block);
  if (media.success) return image(media.data.data, media.data.mimeType, media.data.type, images);
  const resource = Resource.safeParse(block);
  if (resource.success) return resourcePart(resource.data.resource, images);
  const link = Link.safeParse(block);
  if (link.success) return { type: 'text', text: linkLine(link.data) };
  const type = typeof block === 'object' && block !== null && 'type' in block ? JSON.stringify(block.type) : 'unreadable';
  return { type: 'text', text: `[content of type ${type} not shown]` };
}

/** Adjacent texts joined, so a result of many small texts reads (and is capped) as one. */
function joinTexts(parts: readonly Part[]): Part[] {
  const joined: Part[] = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if (part.type === 'text' && last?.type === 'text') joined[joined.length - 1] = { type: 'text', text: `${last.text}\n${part.text}` };
    else joined.push(part);
  }
  return joined;
}

/** Without content, structured content (or an old-style toolResult) is the result. */
function fallbackText(result: McpCallResult): string {
  const value = result.structuredContent ?? result.toolResult;
  if (value === undefined) return '(no output)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** Each text keeps its share of limit, head and tail; images are not counted against it. */
function capParts(parts: readonly Part[], limit: number): Part[] {
  const total = parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  if (total <= limit) return [...parts];
  return parts.map((part) =>
    part.type === 'text' ? { type: 'text', text: capText(part.text, Math.floor((limit * part.text.length) / total)) } : part,
  );
}

/** The outcome of one MCP tool call; outputLimit caps the text (characters, head and tail). */
export function mcpResultToOutcome(result: McpCallResult, outputLimit: number): ToolOutcome {
  const images = { count: 0 };
  const parts = joinTexts((result.content ?? []).map((block) => toPart(block, images)));
  const isError = result.isError === true;
  if (parts.length === 0) return { content: capText(fallbackText(result), outputLimit), isError };
  const capped = capParts(parts, outputLimit);
  const only = capped[0];
  // A lone text goes as a string: the shape every other tool's result has.
  if (capped.length === 1 && only?.type === 'text') return { content: only.text || '(no output)', isError };
  return { content: capped, isError };
}
