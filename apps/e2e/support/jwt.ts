/**
 * JWT helpers for forging the bad tokens a gateway must refuse: altered signature or payload, `alg: none`,
 * HS256 (the classic algorithm-confusion attack), and a well-formed EdDSA token signed by a foreign key.
 */
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';

export type JsonObject = Record<string, unknown>;

export interface DecodedJwt {
  header: JsonObject;
  payload: JsonObject;
  /** The three raw base64url segments. */
  parts: [string, string, string];
}

export function base64url(data: Buffer | string | JsonObject): string {
  const buf = Buffer.isBuffer(data)
    ? data
    : Buffer.from(typeof data === 'string' ? data : JSON.stringify(data));
  return buf.toString('base64url');
}

function decodeSegment(segment: string): JsonObject {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as JsonObject;
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(`not a JWS compact token (${parts.length} parts)`);
  const [h = '', p = '', s = ''] = parts;
  return { header: decodeSegment(h), payload: decodeSegment(p), parts: [h, p, s] };
}

/**
 * Changes one signature character in the middle of the signature. (The last character of a base64url
 * Ed25519 signature carries padding bits: changing it may decode to the same bytes.)
 */
export function tamperSignature(token: string): string {
  const [h, p, s] = decodeJwt(token).parts;
  const i = Math.floor(s.length / 2);
  const swapped = s[i] === 'A' ? 'B' : 'A';
  return `${h}.${p}.${s.slice(0, i)}${swapped}${s.slice(i + 1)}`;
}

/** Re-encodes the payload with `changes`, keeping the original header and signature. */
export function tamperPayload(token: string, changes: JsonObject): string {
  const { payload, parts } = decodeJwt(token);
  return `${parts[0]}.${base64url({ ...payload, ...changes })}.${parts[2]}`;
}

/** An unsigned token (`alg: none`), with an empty signature segment. */
export function algNoneToken(payload: JsonObject, alg = 'none'): string {
  return `${base64url({ alg, typ: 'JWT' })}.${base64url(payload)}.`;
}

/** A token signed with HMAC-SHA256 under `secret`. */
export function hs256Token(payload: JsonObject, secret: string | Buffer, header: JsonObject = {}): string {
  const signingInput = `${base64url({ ...header, alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}`;
  const mac = createHmac('sha256', secret).update(signingInput).digest();
  return `${signingInput}.${base64url(mac)}`;
}

/** A correctly formed EdDSA token, same header (kid included) and claims, signed by a key the server never saw. */
export function foreignEdDsaToken(header: JsonObject, payload: JsonObject): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const signingInput = `${base64url({ ...header, alg: 'EdDSA' })}.${base64url(payload)}`;
  const signature = sign(null, Buffer.from(signingInput), privateKey);
  return `${signingInput}.${base64url(signature)}`;
}
