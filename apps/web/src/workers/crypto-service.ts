import type { KdfParams } from '@vault/crypto';

/**
 * What the UI asks of the vault crypto (libs/crypto). The production implementation runs every
 * call in a Web Worker (crypto-client.ts) so Argon2id never freezes the page; tests use the same
 * operations in-thread or a fake.
 *
 * Keys cross the boundary only as NON-extractable CryptoKeys (structured clone keeps that flag);
 * the raw vault key never leaves the worker, and the wrapping key derived for a sign-in stays in
 * the worker under an opaque handle until the server's answer arrives.
 */
export interface PreloginMaterial {
  salt: string;
  kdfParams: KdfParams | Record<string, unknown>;
}

export interface VaultMaterial extends PreloginMaterial {
  wrappedVaultKey: string;
}

export interface PreparedLogin {
  /** Sent to the server instead of the password. */
  authKey: string;
  /** Names the wrapping key kept in the worker for `openVaultKey`. */
  handle: string;
}

export interface NewAccountMaterial {
  salt: string;
  kdfParams: KdfParams;
  authKey: string;
  wrappedVaultKey: string;
  vaultKey: CryptoKey;
}

export interface CryptoService {
  /** Derives authKey (and keeps the wrapping key) from the password and the prelogin answer. */
  prepareLogin(password: string, material: PreloginMaterial): Promise<PreparedLogin>;
  /** Opens the wrapped vault key with the wrapping key of `handle`, then forgets that key. */
  openVaultKey(handle: string, wrappedVaultKey: string): Promise<CryptoKey>;
  /** Forgets the wrapping key of `handle` (sign-in abandoned). */
  discard(handle: string): void;
  /** Sign-up material: a fresh vault key wrapped under the password (new salt, default KDF). */
  createAccount(password: string): Promise<NewAccountMaterial>;
  /** Unwraps the vault key with the password; DECRYPT_FAILED when the password is wrong. */
  unlockVault(password: string, material: VaultMaterial): Promise<CryptoKey>;
}

/** A crypto failure as it crosses the worker boundary (VaultCryptoError's code and message). */
export class CryptoOperationError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'CryptoOperationError';
    this.code = code;
  }
}

export function cryptoErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A wrong password shows up as an AES-GCM authentication failure when opening the vault key. */
export function isWrongPassword(error: unknown): boolean {
  return cryptoErrorCode(error) === 'DECRYPT_FAILED';
}
