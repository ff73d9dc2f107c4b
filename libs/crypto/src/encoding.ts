/**
 * Encodings used by the protocol: lowercase hex, strict UTF-8, RFC 4648 base32 (no padding).
 * These are not hazardous; they validate strictly and throw VaultCryptoError('BAD_INPUT').
 */
import { badInput } from './errors';
import type { Hex } from './types';

const HEX_DIGITS = '0123456789abcdef';
const HEX_PAIRS: readonly string[] = Array.from(
  { length: 256 },
  (_, i) => HEX_DIGITS[i >> 4]! + HEX_DIGITS[i & 15]!,
);
const HEX_RE = /^(?:[0-9a-f]{2})*$/;
/** Each ASCII code's value as a lowercase hex digit, -1 for every other character. */
const HEX_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < HEX_DIGITS.length; i++) HEX_VALUES[HEX_DIGITS.charCodeAt(i)] = i;

/** True for a value of any realm that is a Uint8Array (Node Buffers included). */
export function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]';
}

/** The parts one after the other in one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export function isHex(value: unknown): value is Hex {
  return typeof value === 'string' && HEX_RE.test(value);
}

export function bytesToHex(bytes: Uint8Array): Hex {
  if (!isBytes(bytes)) throw badInput('bytesToHex expects a Uint8Array');
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_PAIRS[bytes[i]!]!;
  return out as Hex;
}

/**
 * `length` bytes of lowercase hex read from `hex` at `from`, or null at the first character that
 * is not a lowercase hex digit. Character codes and a table, not `parseInt` of a slice per byte:
 * a vault's list decodes every note's four sealed values, and the slices cost 5-6× the time in a
 * notes worker, with their garbage (bench/vault.bench.mjs).
 */
export function decodeHexAt(hex: string, from: number, length: number): Uint8Array<ArrayBuffer> | null {
  if (from < 0 || length < 0 || from + length * 2 > hex.length) return null;
  const out = new Uint8Array(length);
  for (let i = 0, j = from; i < length; i++, j += 2) {
    const hi = hex.charCodeAt(j);
    const lo = hex.charCodeAt(j + 1);
    const h = hi < 128 ? HEX_VALUES[hi]! : -1;
    const l = lo < 128 ? HEX_VALUES[lo]! : -1;
    if ((h | l) < 0) return null;
    out[i] = (h << 4) | l;
  }
  return out;
}

/**
 * Decodes lowercase hex. `expectedLength` (in bytes) is checked when given; `what` names the value in errors.
 */
export function hexToBytes(
  hex: string,
  expectedLength?: number,
  what = 'hex value',
): Uint8Array<ArrayBuffer> {
  if (typeof hex !== 'string') throw badInput(`${what} must be a lowercase hex string`);
  const out = hex.length % 2 === 0 ? decodeHexAt(hex, 0, hex.length / 2) : null;
  if (out === null) throw badInput(`${what} must be lowercase hex with an even number of digits`);
  if (expectedLength !== undefined && out.length !== expectedLength) {
    throw badInput(
      `${what} must be ${expectedLength} bytes (${expectedLength * 2} hex digits), got ${out.length}`,
    );
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const encoder = new TextEncoder();
/**
 * Short ASCII strings (every AAD, ids) are encoded by hand: a TextEncoder call costs about ten
 * times the loop, and opening a vault's notes encodes 40,000 AADs (bench/vault.bench.mjs).
 */
const ASCII_BY_HAND = 256;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 bytes of a string. Lone surrogates are refused rather than silently replaced by U+FFFD. */
export function utf8ToBytes(text: string, what = 'text'): Uint8Array<ArrayBuffer> {
  if (typeof text !== 'string') throw badInput(`${what} must be a string`);
  if (text.length <= ASCII_BY_HAND) {
    const out = new Uint8Array(text.length);
    let i = 0;
    for (let c = 0; i < text.length && (c = text.charCodeAt(i)) < 0x80; i++) out[i] = c;
    if (i === text.length) return out;
  }
  if (LONE_SURROGATE.test(text)) throw badInput(`${what} is not well-formed Unicode (lone surrogate)`);
  return encoder.encode(text);
}

/** Strict UTF-8 decoding: invalid sequences throw instead of becoming U+FFFD. */
export function bytesToUtf8(bytes: Uint8Array, what = 'bytes'): string {
  try {
    return decoder.decode(bytes);
  } catch (e) {
    throw badInput(`${what} are not valid UTF-8`, e);
  }
}

const B32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B32_LOOKUP: ReadonlyMap<string, number> = new Map([...B32_ALPHABET].map((c, i) => [c, i]));

/** RFC 4648 base32, upper case, without padding. */
export function base32Encode(bytes: Uint8Array): string {
  if (!isBytes(bytes)) throw badInput('base32Encode expects a Uint8Array');
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    buffer = ((buffer << 8) | bytes[i]!) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += B32_ALPHABET[(buffer >> (bits - 5)) & 31]!;
      bits -= 5;
    }
  }
  if (bits > 0) out += B32_ALPHABET[(buffer << (5 - bits)) & 31]!;
  return out;
}

/**
 * Decodes RFC 4648 base32 without padding (upper case only; normalise first). Refuses characters outside
 * the alphabet, impossible lengths and non-zero trailing bits, so every byte string has exactly one text form.
 */
export function base32Decode(text: string, what = 'base32 text'): Uint8Array<ArrayBuffer> {
  if (typeof text !== 'string') throw badInput(`${what} must be a string`);
  const rem = text.length % 8;
  if (rem === 1 || rem === 3 || rem === 6) {
    throw badInput(`${what} has an impossible length for base32 (${text.length} characters)`);
  }
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const v = B32_LOOKUP.get(ch);
    if (v === undefined) {
      throw badInput(
        `${what} contains ${JSON.stringify(ch)} at position ${i + 1}, which is not base32 (A-Z and 2-7; 0, 1, 8 and 9 never appear)`,
      );
    }
    buffer = ((buffer << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out[o++] = (buffer >> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  if (bits > 0 && (buffer & ((1 << bits) - 1)) !== 0) {
    throw badInput(`${what} is not canonical base32 (its last character carries non-zero padding bits)`);
  }
  return out;
}
