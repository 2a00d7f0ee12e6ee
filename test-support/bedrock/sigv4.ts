/**
 * SigV4 checking for the fake Bedrock runtime: the header's shape, then the signature itself,
 * recomputed with the expected secret by the same signer the SDK uses, so a wrong secret, region
 * or service is refused as Bedrock refuses it.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { Checksum, SourceData } from '@smithy/types';
import { CloudRejection } from './proxy.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/bedrock\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

function toBytes(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** node:crypto as the signer's hash (the SDK uses a JS SHA-256; the digests are the same). */
class NodeSha256 implements Checksum {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(this.secret));
  }
  update(data: Uint8Array): void {
    this.hash.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `20260601T120000Z` as a Date. */
function amzDate(value: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) throw new CloudRejection(403, `x-amz-date: not an ISO 8601 basic timestamp: ${value}`, 'InvalidSignatureException');
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}

function deny(message: string): never {
  throw new CloudRejection(403, message, 'InvalidSignatureException');
}

/** Refuses (403) a request not signed for `bedrock` in `region` with `creds`. */
export async function verifySigV4(req: IncomingMessage, raw: string, region: string, creds: AwsCredentials): Promise<void> {
  const auth = header(req, 'authorization') ?? deny('Missing Authentication Token');
  const m = AUTH.exec(auth) ?? deny(`Authorization header is not a SigV4 bedrock header: ${auth}`);
  const [, keyId, day, signedRegion, signedHeaders, signature] = m;
  const date = header(req, 'x-amz-date') ?? deny('x-amz-date is required');
  if (keyId !== creds.accessKeyId)
    throw new CloudRejection(403, 'The security token included in the request is invalid.', 'UnrecognizedClientException');
  if (signedRegion !== region) deny(`Credential should be scoped to a valid region: ${signedRegion ?? ''}`);
  if (!date.startsWith(day ?? '?')) deny('Date in Credential scope does not match x-amz-date');
  const names = (signedHeaders ?? '').split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) deny('host and x-amz-date must be signed');
  if (creds.sessionToken !== undefined && header(req, 'x-amz-security-token') !== creds.sessionToken) {
    throw new CloudRejection(403, 'The security token included in the request is invalid.', 'UnrecognizedClientException');
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const name of names) headers[name] = header(req, name) ?? '';
  const request = new HttpRequest({
    method: req.method ?? 'POST',
    protocol: 'http:',
    hostname: url.hostname,
    path: url.pathname,
    headers,
    body: raw,
  });
  const signer = new SignatureV4({ service: 'bedrock', region, credentials: creds, sha256: NodeSha256 });
  const signed = await signer.sign(request, { signingDate: amzDate(date) });
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers['authorization']))?.[1];
  if (expected !== signature) {
    const advice = 'Check your AWS Secret Access Key and signing method.';
    deny(`The request signature we calculated does not match the signature you provided. ${advice}`);
  }
}
