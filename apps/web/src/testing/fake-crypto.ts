import { CryptoOperationError, type CryptoService, type NewAccountMaterial } from '../workers/crypto-service';

/** A stand-in for a non-extractable AES-GCM CryptoKey (jsdom has no WebCrypto keys). */
export function fakeVaultKey(label = 'vault-key'): CryptoKey {
  return {
    type: 'secret',
    extractable: false,
    algorithm: { name: 'AES-GCM', length: 256 } as KeyAlgorithm,
    usages: ['encrypt', 'decrypt'],
    label,
  } as unknown as CryptoKey;
}

/** A fake derived value: the hex of `s`'s UTF-8 bytes, cut or padded to 64 characters. */
export const fakeHex = (s: string) =>
  Array.from(new TextEncoder().encode(s))
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .padEnd(64, '0')
    .slice(0, 64);

/** What the real crypto throws when a wrong password fails to open a vault key. */
export function wrongPasswordError(): CryptoOperationError {
  return new CryptoOperationError(
    'DECRYPT_FAILED',
    "AES-GCM authentication failed (open 'vault:v1:vault-key')",
  );
}

/**
 * The crypto service without the cost of Argon2id: the authKey is a hex encoding of the password,
 * and a vault only unlocks with `correctPassword`. Records every call.
 */
export class FakeCryptoService implements CryptoService {
  readonly calls: string[] = [];
  readonly discarded: string[] = [];
  correctPassword = 'Correct-horse-1';
  readonly vaultKey = fakeVaultKey();
  private next = 1;

  authKeyFor(password: string): string {
    return fakeHex(password);
  }

  async prepareLogin(password: string): Promise<{ authKey: string; handle: string }> {
    this.calls.push('prepareLogin');
    return { authKey: this.authKeyFor(password), handle: `handle-${this.next++}` };
  }

  async openVaultKey(handle: string): Promise<CryptoKey> {
    this.calls.push(`openVaultKey:${handle}`);
    return this.vaultKey;
  }

  discard(handle: string): void {
    this.discarded.push(handle);
  }

  async createAccount(password: string): Promise<NewAccountMaterial> {
    this.calls.push('createAccount');
    return {
      salt: '0'.repeat(32),
      kdfParams: { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
      authKey: this.authKeyFor(password),
      wrappedVaultKey: `${'c'.repeat(96)}:${'d'.repeat(24)}`,
      vaultKey: this.vaultKey,
    };
  }

  async unlockVault(password: string): Promise<CryptoKey> {
    this.calls.push('unlockVault');
    if (password !== this.correctPassword) throw wrongPasswordError();
    return this.vaultKey;
  }
}
