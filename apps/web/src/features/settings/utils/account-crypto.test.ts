// @vitest-environment node
import {
  AAD,
  isVaultCryptoError,
  open,
  openRecoveryVaultKey,
  recoveryKeyFromText,
  seal,
  unwrapVaultKeyRaw,
} from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { channelClient } from '../../../testing/channel-worker';
import { CryptoOps } from '../../../workers/crypto-ops';
import { isWrongPassword } from '../../../workers/crypto-service';

/** The protocol's floor: the cheapest parameters a client accepts (keeps the real Argon2id fast here). */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };

describe('Settings crypto operations (real @vault/crypto in CryptoOps)', () => {
  it('changePassword re-wraps the same vault key under a new salt; the old password no longer opens it', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    const probe = await seal(account.vaultKey, new TextEncoder().encode('note'), 'probe');

    const changed = await ops.changePassword('Correct-horse-1', 'Brand-new-pass-2', account);
    expect(changed.currentAuthKey).toBe(account.authKey);
    expect(changed.authKey).not.toBe(account.authKey);
    expect(changed.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(changed.salt).not.toBe(account.salt);
    expect(changed.kdfParams).toEqual(FLOOR);
    expect((await ops.prepareLogin('Brand-new-pass-2', changed)).authKey).toBe(changed.authKey);

    const reopened = await ops.unlockVault('Brand-new-pass-2', changed);
    expect(new TextDecoder().decode(await open(reopened, probe, 'probe'))).toBe('note');
    const old = await ops.unlockVault('Correct-horse-1', changed).catch((e: unknown) => e);
    expect(isWrongPassword(old)).toBe(true);

    const wrong = await ops.changePassword('Wrong-horse-1', 'x-Y-z-12345', account).catch((e: unknown) => e);
    expect(isVaultCryptoError(wrong) && wrong.code).toBe('DECRYPT_FAILED');
  });

  it('createRecoveryKey wraps the vault key under a fresh 52-character key, after proving the password', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    const made = await ops.createRecoveryKey('Correct-horse-1', account);
    expect(made.authKey).toBe(account.authKey);
    expect(made.recoveryAuth).toMatch(/^[0-9a-f]{64}$/);
    expect(made.recoveryKeyText.replace(/-/g, '')).toMatch(/^[A-Z2-7]{52}$/);

    const fromKey = await openRecoveryVaultKey(
      recoveryKeyFromText(made.recoveryKeyText),
      made.recoveryWrappedVaultKey,
    );
    const fromPassword = await unwrapVaultKeyRaw('Correct-horse-1', account);
    expect(Buffer.from(fromKey).equals(Buffer.from(fromPassword))).toBe(true);
    // The recovery-wrapped key is bound to its own AAD, not the password wrap's.
    await expect(
      open(await ops.unlockVault('Correct-horse-1', account), made.recoveryWrappedVaultKey, AAD.vaultKey),
    ).rejects.toThrow();

    const again = await ops.createRecoveryKey('Correct-horse-1', account);
    expect(again.recoveryKeyText).not.toBe(made.recoveryKeyText);
    const wrong = await ops.createRecoveryKey('Wrong-horse-1', account).catch((e: unknown) => e);
    expect(isWrongPassword(wrong)).toBe(true);
  });

  it('verifyPassword answers the authKey only for the right password, also through the worker protocol', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    expect(await ops.verifyPassword('Correct-horse-1', account)).toBe(account.authKey);
    const worker = channelClient(ops);
    await expect(worker.call('verifyPassword', 'Wrong-horse-1', account)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    worker.terminate();
  });
});
