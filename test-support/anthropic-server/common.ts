/** Shared by validation, the cache simulation and rendering: JSON guards, the token measure, rejections. */
import type { RequestBlock } from './types.js';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isBlock(value: unknown): value is RequestBlock {
  return isRecord(value) && typeof value.type === 'string';
}

/** The single token measure used for every figure the server reports: ceil(JSON chars / 4). */
export function estimateTokens(value: unknown): number {
  const json = JSON.stringify(value) ?? '';
  return Math.ceil(json.length / 4);
}

/** An error answered with the API's error envelope rather than treated as a failure of the fake itself. */
export class Rejection extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export function invalid(message: string): never {
  throw new Rejection(400, 'invalid_request_error', message);
}
