/** The JSON-encoded string-array fields (note tags, file tags). */
import { badFormat } from './errors';
import { bytesToUtf8, utf8ToBytes } from './encoding';
import { requireStringArray } from './validate';

export function encodeTags(tags: readonly string[], what: string): Uint8Array {
  return utf8ToBytes(JSON.stringify(requireStringArray(tags, what)), what);
}

export function decodeTags(bytes: Uint8Array, what: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytesToUtf8(bytes, what));
  } catch (e) {
    throw badFormat(`${what} did not decrypt to JSON`, e);
  }
  if (!Array.isArray(parsed) || !parsed.every((t): t is string => typeof t === 'string')) {
    throw badFormat(`${what} did not decrypt to an array of strings`);
  }
  return parsed;
}

export function decodeText(bytes: Uint8Array, what: string): string {
  try {
    return bytesToUtf8(bytes, what);
  } catch (e) {
    throw badFormat(`${what} did not decrypt to valid UTF-8`, e);
  }
}
