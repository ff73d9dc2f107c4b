/** Argument checks shared by every protocol step. All throw VaultCryptoError('BAD_INPUT'). */
import { hexToBytes, isBytes } from './encoding';
import { badInput } from './errors';
import type { BytesOrHex } from './types';

export const KEY_BYTES = 32;
export const SALT_BYTES = 16;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** Returns the bytes, checked to be a Uint8Array (of `length` bytes when given). */
export function requireBytes(value: unknown, what: string, length?: number): Uint8Array {
  if (!isBytes(value)) throw badInput(`${what} must be a Uint8Array`);
  if (length !== undefined && value.length !== length) {
    throw badInput(`${what} must be ${length} bytes, got ${value.length}`);
  }
  return value;
}

/** Accepts raw bytes or the lowercase hex the server stores; returns bytes of exactly `length`. */
export function bytesOrHex(value: unknown, what: string, length: number): Uint8Array {
  if (typeof value === 'string') return hexToBytes(value, length, what);
  return requireBytes(value, what, length);
}

export function isBytesOrHex(value: unknown): value is BytesOrHex {
  return typeof value === 'string' || isBytes(value);
}

export function requireString(value: unknown, what: string, opts: { nonEmpty?: boolean } = {}): string {
  if (typeof value !== 'string') throw badInput(`${what} must be a string`);
  if (opts.nonEmpty && value.length === 0) throw badInput(`${what} must not be empty`);
  return value;
}

export function requireStringArray(value: unknown, what: string): string[] {
  if (!Array.isArray(value)) throw badInput(`${what} must be an array of strings`);
  return value.map((v: unknown, i) => requireString(v, `${what}[${i}]`));
}

export function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badInput(`${what} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** Copies into a fresh ArrayBuffer-backed array when needed (WebCrypto refuses SharedArrayBuffer views). */
export function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (Object.prototype.toString.call(bytes.buffer) === '[object ArrayBuffer]') {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  return new Uint8Array(bytes);
}

/** Best-effort zeroisation of secret bytes we own (JS gives no guarantee that no copy remains). */
export function wipe(...buffers: (Uint8Array | undefined)[]): void {
  for (const b of buffers) b?.fill(0);
}
