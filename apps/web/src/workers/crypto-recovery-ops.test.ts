// @vitest-environment node
import {
  createAccount,
  decryptFileMetadata,
  decryptNote,
  deriveAnswersAuth,
  encryptFileMetadata,
  encryptNote,
  isVaultCryptoError,
  newItemId,
  recoveryKeyFromText,
  unlockVault,
} from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-worker';
import { CryptoOps } from './crypto-ops';
import { isRecoveryCryptoService, isWrongPassword } from './crypto-service';

/** The protocol's floor: the cheapest parameters a client accepts (keeps the real Argon2id fast here). */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };

describe('CryptoOps recovery operations (real @vault/crypto)', () => {
  it('is a RecoveryCryptoService', () => {
    expect(isRecoveryCryptoService(new CryptoOps())).toBe(true);
    expect(isRecoveryCryptoService({})).toBe(false);
  });

  it('sign-up with the recovery kit: the typed key proves itself and brings the same vault key back', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccountWithRecovery('Correct-horse-1');
    expect(account.recovery.recoveryKeyText).toMatch(/^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/);
    expect(account.recovery.recoveryAuth).toMatch(/^[0-9a-f]{64}$/);

    const note = await encryptNote(account.vaultKey, newItemId(), { title: 't', content: 'kept', tags: [] });

    // Typed in lower case with spaces instead of dashes: still the key.
    const typed = account.recovery.recoveryKeyText.toLowerCase().replace(/-/g, ' ');
    const prepared = await ops.prepareRecoveryKey(typed);
    expect(prepared.recoveryAuth).toBe(account.recovery.recoveryAuth);

    const reset = await ops.createResetMaterial('New-horse-22', {
      handle: prepared.handle,
      recoveryWrappedVaultKey: account.recovery.recoveryWrappedVaultKey,
    });
    expect(reset.vaultKey.extractable).toBe(false);
    expect(reset.salt).not.toBe(account.salt);
    await expect(decryptNote(reset.vaultKey, note)).resolves.toMatchObject({ content: 'kept' });
    // The new password opens what the reset sent.
    const unlocked = await unlockVault('New-horse-22', reset);
    await expect(decryptNote(unlocked.vaultKey, note)).resolves.toMatchObject({ content: 'kept' });
    // The typed key is single use in the worker.
    await expect(
      ops.createResetMaterial('x', {
        handle: prepared.handle,
        recoveryWrappedVaultKey: account.recovery.recoveryWrappedVaultKey,
      }),
    ).rejects.toThrow(/expired/);
  });

  it('refuses text that is not a recovery key (BAD_INPUT)', async () => {
    const error = await new CryptoOps().prepareRecoveryKey('ABCD-EFGH').catch((e: unknown) => e);
    expect(isVaultCryptoError(error, 'BAD_INPUT')).toBe(true);
  });

  it('a reset without the key makes a new vault key that cannot open the old notes', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const old = await ops.createAccount('Old-horse-11');
    const note = await encryptNote(old.vaultKey, newItemId(), { title: 't', content: 'c', tags: [] });
    const reset = await ops.createResetMaterial('New-horse-22');
    await expect(decryptNote(reset.vaultKey, note)).rejects.toThrow();
  });

  it('answersAuth uses the stored questionsSalt and account parameters (same as @vault/crypto), floors enforced', async () => {
    const ops = new CryptoOps();
    const salt = '5a'.repeat(16);
    const auth = await ops.deriveRecoveryAnswersAuth([' Rex ', 'PARIS', 'dune'], salt, FLOOR);
    expect(auth).toBe(await deriveAnswersAuth(['rex', 'paris', 'Dune'], salt, FLOOR));
    const weak = await ops
      .deriveRecoveryAnswersAuth(['a'], salt, {
        kdf: 'argon2id',
        memoryKiB: 8,
        iterations: 1,
        parallelism: 1,
      })
      .catch((e: unknown) => e);
    expect(isVaultCryptoError(weak, 'KDF_PARAMS_REJECTED')).toBe(true);
  });

  it('legacy keys: the old password moves the old notes under the current key; others are skipped', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const old = await createAccount('Old-horse-11', { kdfParams: FLOOR });
    const current = await ops.createResetMaterial('New-horse-22');
    const oldNote = await encryptNote(old.vaultKey, newItemId(), { title: 'old', content: 'c', tags: [] });
    const newNote = await encryptNote(current.vaultKey, newItemId(), {
      title: 'new',
      content: 'c',
      tags: [],
    });
    const items = [
      { kind: 'note' as const, id: oldNote.id, wrappedKey: oldNote.wrappedDEK },
      { kind: 'note' as const, id: newNote.id, wrappedKey: newNote.wrappedDEK },
    ];

    const wrong = await ops.rewrapLegacyItems('nope', old, current.vaultKey, items).catch((e: unknown) => e);
    expect(isWrongPassword(wrong)).toBe(true);

    const result = await ops.rewrapLegacyItems('Old-horse-11', old, current.vaultKey, items);
    expect(result.skipped).toEqual([newNote.id]);
    expect(result.rewrapped).toHaveLength(1);
    const moved = { ...oldNote, wrappedDEK: result.rewrapped[0]!.wrappedKey };
    await expect(decryptNote(current.vaultKey, moved)).resolves.toMatchObject({ title: 'old' });
  });

  it('legacy keys: files move too; a key that also opens under the current vault key is left alone', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const old = await createAccount('Old-horse-11', { kdfParams: FLOOR });
    const current = await ops.createResetMaterial('New-horse-22');
    const fileId = newItemId();
    const meta = await encryptFileMetadata(old.vaultKey, fileId, {
      name: 'a.txt',
      mimeType: 'text/plain',
      tags: [],
    });
    const file = { kind: 'file' as const, id: fileId, wrappedKey: meta.wrappedKey };

    const moved = await ops.rewrapLegacyItems('Old-horse-11', old, current.vaultKey, [file]);
    expect(moved.skipped).toEqual([]);
    const rewrapped = { ...meta, wrappedKey: moved.rewrapped[0]!.wrappedKey };
    await expect(decryptFileMetadata(current.vaultKey, fileId, rewrapped)).resolves.toMatchObject({
      name: 'a.txt',
    });

    // The "legacy" key is the current one: everything already opens under it, nothing is re-sealed.
    const same = await ops.rewrapLegacyItems('Old-horse-11', old, old.vaultKey, [file]);
    expect(same).toEqual({ rewrapped: [], skipped: [fileId] });
  });

  it('the worker runs the recovery operations', async () => {
    const rpc = channelClient(new CryptoOps({ kdfParams: FLOOR }));
    await expect(rpc.call('prepareRecoveryKey', 'x')).rejects.toMatchObject({ code: 'BAD_INPUT' });
    const kit = await rpc.call('createAccountWithRecovery', 'P-w0rdxx');
    expect(recoveryKeyFromText(kit.recovery.recoveryKeyText)).toHaveLength(32);
    rpc.terminate();
  });
});
