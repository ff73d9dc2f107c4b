import fc from 'fast-check';
import { SEALED_PATTERN, importVaultKey, isSealed, open, seal } from './seal';
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

    it('imports the vault key as non-extractable', async () => {
      const k = await importVaultKey(VAULT_KEY_RAW);
      expect(k.extractable).toBe(false);
      await expect(crypto.subtle.exportKey('raw', k)).rejects.toBeTruthy();
    });
  });
});
