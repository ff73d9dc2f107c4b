import { DEFAULT_KDF_PARAMS, isSealed, isVaultCryptoError } from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { InlineNotesCrypto } from '../../../../workers/notes-crypto';
import { BACKUP_AAD, openBackup, sealBackup } from '../../../../workers/notes-ops';

/** The protocol floor keeps Argon2id quick in tests; one test uses the real defaults. */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };
const backup = JSON.stringify({ version: '1.0', notes: [{ id: 'x', title: 'Secret title' }] });

describe('encrypted export (password → Argon2id → HKDF → AES-256-GCM)', () => {
  it('round-trips with the right password, and the envelope reveals nothing of the notes', async () => {
    const envelope = await sealBackup('correct horse battery', backup, FLOOR);
    expect(Object.keys(envelope)).toEqual(['format', 'version', 'kdfParams', 'salt', 'data']);
    expect(envelope).toMatchObject({ format: 'vault-encrypted-backup', version: 1, kdfParams: FLOOR });
    expect(envelope.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(isSealed(envelope.data)).toBe(true);
    expect(JSON.stringify(envelope)).not.toContain('Secret');
    expect(await openBackup('correct horse battery', envelope)).toBe(backup);
    expect(BACKUP_AAD).toBe('vault:v1:export');
  });

  it('uses a fresh salt and IV every time', async () => {
    const a = await sealBackup('pw-pw-pw-pw', backup, FLOOR);
    const b = await sealBackup('pw-pw-pw-pw', backup, FLOOR);
    expect(a.salt).not.toBe(b.salt);
    expect(a.data).not.toBe(b.data);
  });

  it('a wrong password is DECRYPT_FAILED', async () => {
    const envelope = await sealBackup('right password', backup, FLOOR);
    const error = await openBackup('wrong password', envelope).catch((e: unknown) => e);
    expect(isVaultCryptoError(error, 'DECRYPT_FAILED')).toBe(true);
  });

  it('a changed file is refused (ciphertext, salt or parameters)', async () => {
    const envelope = await sealBackup('right password', backup, FLOOR);
    const flip = (s: string) => (s[0] === '0' ? '1' : '0') + s.slice(1);
    await expect(
      openBackup('right password', { ...envelope, data: flip(envelope.data) }),
    ).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(
      openBackup('right password', { ...envelope, salt: flip(envelope.salt) }),
    ).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    // Parameters below the protocol floor are refused before anything is derived.
    await expect(
      openBackup('right password', { ...envelope, kdfParams: { ...FLOOR, memoryKiB: 1024 } }),
    ).rejects.toMatchObject({ code: 'KDF_PARAMS_REJECTED' });
    await expect(openBackup('right password', { ...envelope, version: 2 })).rejects.toMatchObject({
      code: 'BAD_FORMAT',
    });
    await expect(
      openBackup('right password', { format: 'vault-encrypted-backup', version: 1 }),
    ).rejects.toMatchObject({
      code: 'BAD_FORMAT',
    });
  });

  it('uses the account defaults (Argon2id 64 MiB, 3 passes) unless told otherwise, through the client API', async () => {
    const crypto = new InlineNotesCrypto();
    const envelope = await crypto.sealBackup('a long export password', backup);
    expect(envelope.kdfParams).toEqual(DEFAULT_KDF_PARAMS);
    expect(await crypto.openBackup('a long export password', envelope)).toBe(backup);
    await expect(crypto.openBackup('nope', envelope)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  }, 30_000);
});
