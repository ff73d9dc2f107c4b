import fc from 'fast-check';
import { SEALED_PATTERN, importVaultKey, isSealed, open, openAesKey, seal } from './seal';
import { importAesGcmKey } from './primitives';
import { bytesToHex } from './encoding';
import { OTHER_KEY_RAW, VAULT_KEY_RAW, vaultKey } from '../test/support/keys';

function flipHexDigit(s: string, at: number): string {
  const d = parseInt(s[at] ?? '0', 16) ^ 1;
  return s.slice(0, at) + d.toString(16) + s.slice(at + 1);
}

describe('seal / open', () => {
  it('round-trips any plaintext and AAD with a CryptoKey or raw key (property)', async () => {
    const key = await vaultKey();
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.boolean(),
        async (pt, aad, raw) => {
          const k = raw ? VAULT_KEY_RAW : key;
          const sealed = await seal(k, pt, aad);
          expect(isSealed(sealed)).toBe(true);
          expect(sealed.length).toBe((pt.length + 16) * 2 + 1 + 24);
          expect(bytesToHex(await open(k, sealed, aad))).toBe(bytesToHex(pt));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('draws a fresh IV each time', async () => {
    const key = await vaultKey();
    const a = await seal(key, new Uint8Array(4), 'aad');
    const b = await seal(key, new Uint8Array(4), 'aad');
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
  });

  describe('refusals', () => {
    let sealed: string;
    let key: CryptoKey;
    beforeAll(async () => {
      key = await vaultKey();
      sealed = await seal(key, new TextEncoder().encode('secret text'), 'vault:v1:test');
    });

    it('refuses a flipped bit in the ciphertext, the tag and the IV with DECRYPT_FAILED', async () => {
      const [data = '', iv = ''] = sealed.split(':');
      const inCiphertext = `${flipHexDigit(data, 0)}:${iv}`;
      const inTag = `${flipHexDigit(data, data.length - 1)}:${iv}`;
      const inIv = `${data}:${flipHexDigit(iv, 5)}`;
      for (const bad of [inCiphertext, inTag, inIv]) {
        await expect(open(key, bad, 'vault:v1:test')).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
      }
    });

    it('refuses the wrong AAD and the wrong key', async () => {
      await expect(open(key, sealed, 'vault:v1:other')).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
        message: expect.stringContaining("open 'vault:v1:other': decryption failed"),
      });
      await expect(open(OTHER_KEY_RAW, sealed, 'vault:v1:test')).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
      });
    });

    it('refuses malformed sealed strings with BAD_FORMAT', async () => {
      const [data = '', iv = ''] = sealed.split(':');
      for (const bad of [
        `${data}`,
        `${data}:${iv}00`,
        `${data.toUpperCase()}:${iv}`,
        `${data}0:${iv}`,
        `${'00'.repeat(15)}:${iv}`,
        `:${iv}`,
      ]) {
        expect(isSealed(bad)).toBe(false);
        await expect(open(key, bad, 'vault:v1:test')).rejects.toMatchObject({ code: 'BAD_FORMAT' });
      }
      expect(SEALED_PATTERN.test(sealed)).toBe(true);
    });

    it('checks keys, IVs and AADs', async () => {
      await expect(seal(new Uint8Array(16), new Uint8Array(1), 'a')).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });
      await expect(seal(key, new Uint8Array(1), 'a', new Uint8Array(8))).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });
      await expect(seal(key, new Uint8Array(1), '')).rejects.toMatchObject({ code: 'BAD_INPUT' });
      const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      await expect(seal(hmac, new Uint8Array(1), 'a')).rejects.toMatchObject({ code: 'BAD_INPUT' });
      const encryptOnly = await crypto.subtle.importKey('raw', VAULT_KEY_RAW, 'AES-GCM', false, ['encrypt']);
      await expect(open(encryptOnly, sealed, 'vault:v1:test')).rejects.toMatchObject({
        code: 'BAD_INPUT',
        message: expect.stringContaining('not allowed to decrypt'),
      });
    });

    it("checks a key's usages on every call, also once the key is known to be AES-256-GCM", async () => {
      const decryptOnly = await crypto.subtle.importKey('raw', VAULT_KEY_RAW, 'AES-GCM', false, ['decrypt']);
      const mine = await seal(key, new Uint8Array([7]), 'vault:v1:test');
      for (let i = 0; i < 2; i++) {
        await expect(open(decryptOnly, mine, 'vault:v1:test')).resolves.toEqual(new Uint8Array([7]));
        await expect(seal(decryptOnly, new Uint8Array(1), 'vault:v1:test')).rejects.toMatchObject({
          code: 'BAD_INPUT',
          message: expect.stringContaining('not allowed to encrypt'),
        });
      }
    });

    it('imports the vault key as non-extractable', async () => {
      const k = await importVaultKey(VAULT_KEY_RAW);
      expect(k.extractable).toBe(false);
      await expect(crypto.subtle.exportKey('raw', k)).rejects.toBeTruthy();
    });
  });
});

describe('openAesKey: a sealed key opened inside WebCrypto when the wrapping key may unwrap', () => {
  const AAD = 'vault:v1:note-key:test';
  const itemKey = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
  /** The same vault key as before unwrapKey was among its usages (a key kept in a browser from then). */
  const olderVaultKey = () => importAesGcmKey(VAULT_KEY_RAW, ['encrypt', 'decrypt'], 'vault key');
  /** What a key encrypts: the same ciphertext under both paths' keys means the same key. */
  const fingerprint = async (key: CryptoKey) =>
    bytesToHex(
      new Uint8Array(
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, key, new Uint8Array(16)),
      ),
    );

  it('gives the vault key unwrapKey, and opens to the same non-extractable key as decrypt-then-import', async () => {
    const key = await vaultKey();
    expect([...key.usages].sort()).toEqual(['decrypt', 'encrypt', 'unwrapKey']);
    const older = await olderVaultKey();
    const sealed = await seal(key, itemKey, AAD);
    const unwrapped = await openAesKey(key, sealed, AAD);
    const imported = await openAesKey(older, sealed, AAD);
    expect(unwrapped.extractable).toBe(false);
    expect([...unwrapped.usages].sort()).toEqual(['decrypt', 'encrypt']);
    expect(unwrapped.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    await expect(crypto.subtle.exportKey('raw', unwrapped)).rejects.toBeTruthy();
    expect(await fingerprint(unwrapped)).toBe(await fingerprint(imported));
    expect(await fingerprint(unwrapped)).toBe(await fingerprint(await importAesGcmKey(itemKey, ['encrypt'])));
    const decryptOnly = await openAesKey(key, sealed, AAD, ['decrypt']);
    expect(decryptOnly.usages).toEqual(['decrypt']);
  });

  it('refuses what decrypt-then-import refuses, with the same codes', async () => {
    const key = await vaultKey();
    const older = await olderVaultKey();
    const sealed = await seal(key, itemKey, AAD);
    const [data = '', iv = ''] = sealed.split(':');
    const cases: [string, string, string][] = [
      ['a flipped ciphertext bit', `${flipHexDigit(data, 3)}:${iv}`, AAD],
      ['a flipped tag bit', `${flipHexDigit(data, data.length - 1)}:${iv}`, AAD],
      ['a flipped IV bit', `${data}:${flipHexDigit(iv, 0)}`, AAD],
      ["another item's AAD", sealed, 'vault:v1:note-key:other'],
      ['a 16-byte key', await seal(key, itemKey.slice(0, 16), AAD), AAD],
      ['a 48-byte value', await seal(key, new Uint8Array(48), AAD), AAD],
      ['no key at all', 'zz:00', AAD],
    ];
    for (const [what, value, aad] of cases) {
      const viaUnwrap = await openAesKey(key, value, aad).catch((e: { code?: string }) => e.code);
      const viaImport = await openAesKey(older, value, aad).catch((e: { code?: string }) => e.code);
      expect([what, viaUnwrap]).toEqual([what, viaImport]);
      expect([what, viaUnwrap]).toEqual([what, expect.stringMatching(/^(DECRYPT_FAILED|BAD_FORMAT)$/)]);
    }
    // A key sealed under another vault key does not open.
    const foreign = await seal(await importVaultKey(OTHER_KEY_RAW), itemKey, AAD);
    await expect(openAesKey(key, foreign, AAD)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  });
});
