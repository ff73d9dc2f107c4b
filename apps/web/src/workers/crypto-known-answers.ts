/**
 * Known answers from the standards, computed with the primitives @vault/crypto is built on: WebCrypto
 * (AES-256-GCM with a 128-bit tag, HKDF-SHA256, PBKDF2-HMAC-SHA256, called with the parameters the
 * library's primitives use) and hash-wasm's Argon2id. The library's own API fixes protocol shapes
 * (32-byte keys, labels, KDF floors) the standards' vectors do not fit, hence these direct calls.
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from '@vault/crypto';
import { argon2id } from 'hash-wasm';

/** One case of a self-test; `fullOnly` cases are left out of Quick Test. */
export interface SelfTestCaseDefinition {
  name: string;
  fullOnly?: boolean;
  run(): Promise<void>;
}

const hex = (h: string): Uint8Array<ArrayBuffer> => new Uint8Array(hexToBytes(h));
const subtle = (): SubtleCrypto => globalThis.crypto.subtle;

export function expectHex(actual: Uint8Array, expected: string, label: string): void {
  const got = bytesToHex(actual);
  if (got !== expected) throw new Error(`${label}: expected ${expected}, got ${got}`);
}

// McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)", test cases 13, 14 and 16 (AES-256).
const AES_GCM = [
  {
    name: 'AES-256-GCM McGrew-Viega test case 16 (60-byte plaintext, 20-byte AAD)',
    key: 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308',
    iv: 'cafebabefacedbaddecaf888',
    aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
    plaintext:
      'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39',
    ciphertextAndTag:
      '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662' +
      '76fc6ece0f4e1768cddf8853bb2d551b',
  },
  {
    name: 'AES-256-GCM McGrew-Viega test case 13 (empty plaintext)',
    key: '00'.repeat(32),
    iv: '00'.repeat(12),
    aad: '',
    plaintext: '',
    ciphertextAndTag: '530f8afbc74536b9a963b4f1c4cb738b',
    fullOnly: true,
  },
  {
    name: 'AES-256-GCM McGrew-Viega test case 14 (16 zero bytes)',
    key: '00'.repeat(32),
    iv: '00'.repeat(12),
    aad: '',
    plaintext: '00'.repeat(16),
    ciphertextAndTag: 'cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919',
    fullOnly: true,
  },
];

// RFC 5869 appendix A: test case 1, and test case 3 (empty salt and info, as the protocol's HKDF salt).
const HKDF = [
  {
    name: 'HKDF-SHA256 RFC 5869 test case 1',
    ikm: '0b'.repeat(22),
    salt: '000102030405060708090a0b0c',
    info: 'f0f1f2f3f4f5f6f7f8f9',
    okm: '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
  },
  {
    name: 'HKDF-SHA256 RFC 5869 test case 3 (empty salt and info)',
    ikm: '0b'.repeat(22),
    salt: '',
    info: '',
    okm: '8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8',
    fullOnly: true,
  },
];

// RFC 7914 section 11: PBKDF2-HMAC-SHA256 with dkLen 64.
const PBKDF2 = [
  {
    name: 'PBKDF2-HMAC-SHA256 RFC 7914 section 11 (c = 1)',
    password: 'passwd',
    salt: 'salt',
    iterations: 1,
    dk: '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
  },
  {
    name: 'PBKDF2-HMAC-SHA256 RFC 7914 section 11 (c = 80000)',
    password: 'Password',
    salt: 'NaCl',
    iterations: 80_000,
    dk: '4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d',
    fullOnly: true,
  },
];

// The Argon2 reference implementation's known answers (P-H-C/phc-winner-argon2 src/test.c, version
// 0x13, "password" / "somesalt"). RFC 9106's section 5.3 vector needs associated data, which
// hash-wasm (the library's Argon2id) does not take, so these are the Argon2id answers it can check.
const ARGON2ID = [
  {
    name: 'Argon2id reference vector (m = 256 KiB, t = 2, p = 1)',
    memoryKiB: 256,
    iterations: 2,
    parallelism: 1,
    tag: '9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe',
  },
  {
    name: 'Argon2id reference vector (m = 64 MiB, t = 2, p = 1)',
    memoryKiB: 65_536,
    iterations: 2,
    parallelism: 1,
    tag: '09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7',
    fullOnly: true,
  },
];

function gcm(iv: string, aad: string): AesGcmParams {
  return { name: 'AES-GCM', iv: hex(iv), additionalData: hex(aad), tagLength: 128 };
}

export const aesGcmCases = (): SelfTestCaseDefinition[] =>
  AES_GCM.map((v) => ({
    name: v.name,
    fullOnly: v.fullOnly,
    run: async () => {
      const key = await subtle().importKey('raw', hex(v.key), 'AES-GCM', false, ['encrypt', 'decrypt']);
      const sealed = new Uint8Array(await subtle().encrypt(gcm(v.iv, v.aad), key, hex(v.plaintext)));
      expectHex(sealed, v.ciphertextAndTag, 'ciphertext || tag');
      const opened = new Uint8Array(await subtle().decrypt(gcm(v.iv, v.aad), key, hex(v.ciphertextAndTag)));
      expectHex(opened, v.plaintext, 'decrypted plaintext');
    },
  }));

export const hkdfCases = (): SelfTestCaseDefinition[] =>
  HKDF.map((v) => ({
    name: v.name,
    fullOnly: v.fullOnly,
    run: async () => {
      const base = await subtle().importKey('raw', hex(v.ikm), 'HKDF', false, ['deriveBits']);
      const params = { name: 'HKDF', hash: 'SHA-256', salt: hex(v.salt), info: hex(v.info) };
      const okm = new Uint8Array(await subtle().deriveBits(params, base, (v.okm.length / 2) * 8));
      expectHex(okm, v.okm, 'OKM');
    },
  }));

export const pbkdf2Cases = (): SelfTestCaseDefinition[] =>
  PBKDF2.map((v) => ({
    name: v.name,
    fullOnly: v.fullOnly,
    run: async () => {
      const base = await subtle().importKey('raw', utf8ToBytes(v.password), 'PBKDF2', false, ['deriveBits']);
      const params = { name: 'PBKDF2', hash: 'SHA-256', salt: utf8ToBytes(v.salt), iterations: v.iterations };
      expectHex(new Uint8Array(await subtle().deriveBits(params, base, 64 * 8)), v.dk, 'DK');
    },
  }));

export const argon2idCases = (): SelfTestCaseDefinition[] =>
  ARGON2ID.map((v) => ({
    name: v.name,
    fullOnly: v.fullOnly,
    run: async () => {
      const tag = await argon2id({
        password: 'password',
        salt: 'somesalt',
        iterations: v.iterations,
        parallelism: v.parallelism,
        memorySize: v.memoryKiB,
        hashLength: 32,
        outputType: 'binary',
      });
      expectHex(tag, v.tag, 'tag');
    },
  }));
