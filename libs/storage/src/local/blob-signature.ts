import { createHmac, timingSafeEqual } from 'node:crypto';
import { BLOB_OPERATIONS, ErrorCode, VaultError, type BlobOperation } from '@vault/contracts';
import { isValidObjectKey } from '../object-key';

/**
 * Signed URLs of the local driver: `${urlBase}/${owner}/${fileId}?op=put|get&exp=..&len=..&sig=..`.
 * The signature is HMAC-SHA256 (hex) under the deployment's storage signing secret over
 * one canonical line per field, so a URL names one operation on one object, with one
 * length for uploads, until one instant. The files service's blob route parses the
 * request with `parseBlobUrl` and checks it with `verifyBlobSignature`.
 */
export const DEFAULT_BLOB_URL_BASE = '/api/files/blob';
const CANONICAL_PREFIX = 'vault-blob-v1';
export const BLOB_SECRET_MIN_BYTES = 32;

export interface BlobSignatureParams {
  key: string;
  op: string;
  /** Unix seconds. */
  exp: string | number;
  /** Content length, uploads only. */
  len?: string | number | null;
  sig: string;
}

export interface VerifiedBlobRequest {
  key: string;
  op: BlobOperation;
  /** The exact length the upload was signed for (uploads only). */
  len?: number;
  /** Unix seconds. */
  exp: number;
}

function linkInvalid(): VaultError {
  return new VaultError(ErrorCode.LINK_INVALID);
}

export function blobSecretBytes(secret: Buffer | string): Buffer {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (bytes.length < BLOB_SECRET_MIN_BYTES) {
    throw new Error(`The storage signing secret must be at least ${BLOB_SECRET_MIN_BYTES} bytes`);
  }
  return bytes;
}

function canonical(key: string, op: BlobOperation, exp: number, len: number | undefined): string {
  return [CANONICAL_PREFIX, op, key, String(exp), len === undefined ? '' : String(len)].join('\n');
}

/** Hex HMAC-SHA256 of the canonical string (the `sig` query value). */
export function signBlobRequest(
  request: { key: string; op: BlobOperation; exp: number; len?: number },
  secret: Buffer | string,
): string {
  return createHmac('sha256', blobSecretBytes(secret))
    .update(canonical(request.key, request.op, request.exp, request.len))
    .digest('hex');
}

/** The relative URL of one signed operation. */
export function buildBlobUrl(
  request: { key: string; op: BlobOperation; exp: number; len?: number },
  secret: Buffer | string,
  urlBase: string = DEFAULT_BLOB_URL_BASE,
): string {
  const query = new URLSearchParams({ op: request.op, exp: String(request.exp) });
  if (request.op === 'put') query.set('len', String(request.len ?? 0));
  query.set('sig', signBlobRequest(request, secret));
  return `${urlBase}/${request.key}?${query.toString()}`;
}

const DIGITS = /^\d{1,15}$/;
const HEX_SIG = /^[0-9a-f]{64}$/;

function asInteger(value: string | number | null | undefined): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && DIGITS.test(value)) return Number(value);
  return undefined;
}

/**
 * Checks a blob request against its signature: the key, the operation, the expiry and (for
 * uploads) the length must be exactly what was signed, and the expiry in the future.
 * Anything else throws `VaultError(LINK_INVALID)` (403), without saying which part failed.
 */
export function verifyBlobSignature(
  params: BlobSignatureParams,
  secret: Buffer | string,
  now: number = Date.now(),
): VerifiedBlobRequest {
  const verified = verifyBlobSignatureAnyExpiry(params, secret);
  if (verified.exp * 1000 <= now) throw linkInvalid();
  return verified;
}

/**
 * `verifyBlobSignature` without the expiry check: the URL is exactly as signed, whether or not
 * `exp` has passed. Only for the continuation parts of an upload in parts, which may finish after
 * the URL expired when the upload began in time (the caller checks that it did).
 */
export function verifyBlobSignatureAnyExpiry(
  params: BlobSignatureParams,
  secret: Buffer | string,
): VerifiedBlobRequest {
  const secretBytes = blobSecretBytes(secret);
  const { key, op, sig } = params;
  if (!isValidObjectKey(key)) throw linkInvalid();
  if (!(BLOB_OPERATIONS as readonly string[]).includes(op)) throw linkInvalid();
  const operation = op as BlobOperation;
  const exp = asInteger(params.exp);
  if (exp === undefined) throw linkInvalid();
  const hasLen = params.len !== undefined && params.len !== null && params.len !== '';
  const len = hasLen ? asInteger(params.len) : undefined;
  if (operation === 'put' && len === undefined) throw linkInvalid();
  if (operation === 'get' && hasLen) throw linkInvalid();
  if (typeof sig !== 'string' || !HEX_SIG.test(sig)) throw linkInvalid();

  const expected = createHmac('sha256', secretBytes)
    .update(canonical(key, operation, exp, len))
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) throw linkInvalid();
  return len === undefined ? { key, op: operation, exp } : { key, op: operation, exp, len };
}

/**
 * The signature parameters of a blob URL (relative or absolute; path `${urlBase}/${key}`).
 * A repeated query parameter or a path outside `urlBase` throws `VaultError(LINK_INVALID)`.
 */
export function parseBlobUrl(url: string, urlBase: string = DEFAULT_BLOB_URL_BASE): BlobSignatureParams {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://blob.invalid');
  } catch {
    throw linkInvalid();
  }
  const prefix = `${urlBase.replace(/\/+$/, '')}/`;
  if (!parsed.pathname.startsWith(prefix)) throw linkInvalid();
  const key = parsed.pathname.slice(prefix.length);
  const one = (name: string): string | undefined => {
    const values = parsed.searchParams.getAll(name);
    if (values.length > 1) throw linkInvalid();
    return values[0];
  };
  const op = one('op');
  const exp = one('exp');
  const sig = one('sig');
  const len = one('len');
  if (op === undefined || exp === undefined || sig === undefined) throw linkInvalid();
  return { key, op, exp, sig, ...(len === undefined ? {} : { len }) };
}
