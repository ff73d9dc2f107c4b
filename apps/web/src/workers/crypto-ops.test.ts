// @vitest-environment node
import { AAD, DEFAULT_KDF_PARAMS, isVaultCryptoError, open } from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-worker';
import { CryptoOps } from './crypto-ops';
import { isWrongPassword } from './crypto-service';

/** The protocol's floor: the cheapest parameters a client accepts (keeps the real Argon2id fast here). */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };

describe('CryptoOps (real @vault/crypto)', () => {
  it('signs up, signs in with the same password and opens the same vault key', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    expect(account.vaultKey.extractable).toBe(false);
    expect(account.authKey).toMatch(/^[0-9a-f]{64}$/);
    expect(account.kdfParams).toEqual(FLOOR);

    const prepared = await ops.prepareLogin('Correct-horse-1', account);
    expect(prepared.authKey).toBe(account.authKey);
    const key = await ops.openVaultKey(prepared.handle, account.wrappedVaultKey);
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });

    // The handle is single use: the wrapping key is gone after opening.
    await expect(ops.openVaultKey(prepared.handle, account.wrappedVaultKey)).rejects.toThrow(/expired/);
  });

  it('new accounts use the default Argon2id parameters', async () => {
    const ops = new CryptoOps();
    const account = await ops.createAccount('Correct-horse-1');
    expect(account.kdfParams).toEqual(DEFAULT_KDF_PARAMS);
  }, 30_000);

  it("a wrong password derives another authKey and cannot open the vault key ('Invalid password')", async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    const wrong = await ops.prepareLogin('Correct-horse-2', account);
    expect(wrong.authKey).not.toBe(account.authKey);
    const error = await ops.unlockVault('Correct-horse-2', account).catch((e: unknown) => e);
    expect(isWrongPassword(error)).toBe(true);
    await expect(ops.unlockVault('Correct-horse-1', account)).resolves.toMatchObject({ extractable: false });
  });

  it('refuses KDF parameters below the protocol floor before deriving anything', async () => {
    const ops = new CryptoOps();
    const error = await ops
      .prepareLogin('pw', {
        salt: '00'.repeat(16),
        kdfParams: { kdf: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 },
      })
      .catch((e: unknown) => e);
    expect(isVaultCryptoError(error, 'KDF_PARAMS_REJECTED')).toBe(true);
  });

  it('the vault key it returns really is the account key (it opens what the wrap key sealed)', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    const key = await ops.unlockVault('Correct-horse-1', account);
    const iv = new Uint8Array(12);
    const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode('hi'));
    const pt = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, account.vaultKey, ct);
    expect(new TextDecoder().decode(pt)).toBe('hi');
    expect(open).toBeTypeOf('function');
    expect(AAD.vaultKey).toBe('vault:v1:vault-key');
  });

  it('failures cross the worker boundary with their code', async () => {
    const ops = new CryptoOps({ kdfParams: FLOOR });
    const account = await ops.createAccount('Correct-horse-1');
    const rpc = channelClient(ops);
    await expect(rpc.call('unlockVault', 'nope', account)).rejects.toMatchObject({
      name: 'CryptoOperationError',
      code: 'DECRYPT_FAILED',
    });
    await expect(rpc.call('discard', 'x')).resolves.toBeUndefined();
    rpc.terminate();
  });
});
