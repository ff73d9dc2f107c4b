/** HAZARDOUS: raw HKDF-SHA256 (RFC 5869) with an empty salt, as the protocol fixes it. */
import { utf8ToBytes } from '../encoding';
import { KEY_BYTES, ownBytes, requireBytes, requireString } from '../validate';
import { subtle } from './subtle';

const EMPTY_SALT = new Uint8Array(0);

async function hkdfBaseKey(ikm: Uint8Array): Promise<CryptoKey> {
  requireBytes(ikm, 'HKDF input key material', KEY_BYTES);
  return subtle().importKey('raw', ownBytes(ikm), 'HKDF', false, ['deriveBits', 'deriveKey']);
}

function params(info: string): HkdfParams {
  requireString(info, 'HKDF info', { nonEmpty: true });
  return { name: 'HKDF', hash: 'SHA-256', salt: EMPTY_SALT, info: utf8ToBytes(info, 'HKDF info') };
}

/** 32 bytes of HKDF-SHA256(ikm, salt = empty, info = utf8(info)). */
export async function hkdfBytes(ikm: Uint8Array, info: string): Promise<Uint8Array<ArrayBuffer>> {
  const base = await hkdfBaseKey(ikm);
  return new Uint8Array(await subtle().deriveBits(params(info), base, KEY_BYTES * 8));
}

/** The same 32 bytes, but straight into a non-extractable AES-256-GCM key. */
export async function hkdfAesKey(
  ikm: Uint8Array,
  info: string,
  usages: readonly ('encrypt' | 'decrypt')[],
): Promise<CryptoKey> {
  const base = await hkdfBaseKey(ikm);
  return subtle().deriveKey(params(info), base, { name: 'AES-GCM', length: 256 }, false, [...usages]);
}
