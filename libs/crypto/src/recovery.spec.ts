import fc from 'fast-check';
import {
  createRecoveryMaterial,
  deriveRecoveryAuth,
  generateRecoveryKey,
  openRecoveryVaultKey,
  recoveryKeyFromText,
  recoveryKeyToText,
} from './recovery';
import { createAccount } from './account';
import { bytesToHex, hexToBytes } from './encoding';
import { PBKDF2_FLOOR, VAULT_KEY_RAW } from '../test/support/keys';

const TEXT = 'AUDA-OCAJ-BIFQ-YDIO-B4IB-CEQT-CQKR-MFYY-DENB-WHA5-DYPS-AIJC-EMSA';

describe('recovery key', () => {
  it('text round-trips for any key, also when typed in lower case with spaces (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), (raw, sloppy) => {
        const text = recoveryKeyToText(raw);
        expect(text).toMatch(/^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/);
        const typed = sloppy ? `  ${text.toLowerCase().replace(/-/g, ' ')}\n` : text;
        expect(recoveryKeyFromText(typed)).toEqual(new Uint8Array(raw));
      }),
      { numRuns: 200 },
    );
  });

  it('generates 32 random bytes', () => {
    const a = generateRecoveryKey();
    expect(a).toHaveLength(32);
    expect(bytesToHex(a)).not.toBe(bytesToHex(generateRecoveryKey()));
  });

  it('refuses the wrong length, the wrong alphabet and non-canonical text with clear errors', () => {
    expect(() => recoveryKeyFromText(TEXT.slice(0, -1))).toThrow(
      'recovery key must have 52 base32 characters (dashes and spaces aside), got 51',
    );
    expect(() => recoveryKeyFromText(`${TEXT}A`)).toThrow(/got 53/);
    expect(() => recoveryKeyFromText(TEXT.replace('AUDA', 'AUD0'))).toThrow(
      'recovery key contains "0" at position 4, which is not base32 (A-Z and 2-7; 0, 1, 8 and 9 never appear)',
    );
    expect(() => recoveryKeyFromText(TEXT.replace('-', '_'))).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT' }),
    );
    expect(() => recoveryKeyFromText(TEXT.replace('EMSA', 'EMSB'))).toThrow(/not canonical/);
    expect(() => recoveryKeyToText(new Uint8Array(16))).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT' }),
    );
  });

  it('recovery material opens with the recovery key only, and can be made from the password-wrapped vault key', async () => {
    const rk = generateRecoveryKey();
    const account = await createAccount('pw', { kdfParams: PBKDF2_FLOOR, vaultKey: VAULT_KEY_RAW });
    const m = await createRecoveryMaterial(rk, { password: 'pw', ...account });
    expect(m.recoveryAuth).toBe(await deriveRecoveryAuth(rk));
    expect(bytesToHex(await openRecoveryVaultKey(rk, m.recoveryWrappedVaultKey))).toBe(
      bytesToHex(VAULT_KEY_RAW),
    );
    await expect(
      openRecoveryVaultKey(generateRecoveryKey(), m.recoveryWrappedVaultKey),
    ).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    // The password-wrapped form is not accepted in place of the recovery-wrapped one (different AAD and key).
    await expect(openRecoveryVaultKey(rk, account.wrappedVaultKey)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(createRecoveryMaterial(rk, { password: 'wrong', ...account })).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(createRecoveryMaterial(rk, hexToBytes('00'))).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
