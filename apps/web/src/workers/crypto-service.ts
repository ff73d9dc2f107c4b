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

/**
 * The recovery screen's, the sign-up recovery kit's and the legacy-key unlock's operations, also run
 * in the worker. Kept apart from CryptoService like AccountCryptoService (fakes opt in).
 */
export interface RecoveryCryptoService {
  /** Sign-up material plus a fresh recovery key (the recovery kit): createAccount with `recovery: true`. */
  createAccountWithRecovery(password: string): Promise<NewAccountWithRecovery>;
  /** answersAuth of the security answers (account KDF parameters, the stored questionsSalt). */
  deriveRecoveryAnswersAuth(
    answers: string[],
    questionsSalt: string,
    kdfParams: KdfParams | Record<string, unknown>,
  ): Promise<string>;
  /**
   * Parses a typed recovery key and derives recoveryAuth; the key itself stays in the worker under
   * the returned handle for `createResetMaterial`. BAD_INPUT when the text is not a recovery key.
   */
  prepareRecoveryKey(recoveryKeyText: string): Promise<PreparedRecoveryKey>;
  /**
   * The new password's material after a recovery. With `recovery`, the vault key that the recovery
   * key opens is re-wrapped (same vault key); without it, a fresh vault key (newVaultKey).
   */
  createResetMaterial(
    password: string,
    recovery?: { handle: string; recoveryWrappedVaultKey: string },
  ): Promise<NewAccountMaterial>;
  /**
   * Opens a vault key from before an access reset with the old password and moves every item key it
   * opens under the current vault key. DECRYPT_FAILED when the old password is wrong.
   */
  rewrapLegacyItems(
    password: string,
    legacy: VaultMaterial,
    currentVaultKey: CryptoKey,
    items: LegacyItemKey[],
  ): Promise<LegacyRewrapResult>;
}

/** Whether `service` has every method of `names` (the fakes implement only what their tests use). */
export function hasMethods<T>(service: unknown, names: readonly (keyof T)[]): service is T {
  if (typeof service !== 'object' || service === null) return false;
  const s = service as Partial<Record<keyof T, unknown>>;
  return names.every((name) => typeof s[name] === 'function');
}

export function isRecoveryCryptoService(service: unknown): service is RecoveryCryptoService {
  return hasMethods<RecoveryCryptoService>(service, [
    'createAccountWithRecovery',
    'deriveRecoveryAnswersAuth',
    'prepareRecoveryKey',
    'createResetMaterial',
    'rewrapLegacyItems',
  ]);
}

/** recoveryAuth for the server; `handle` names the recovery key kept in the worker. */
export interface PreparedRecoveryKey {
  recoveryAuth: string;
  handle: string;
}

/** Sign-up material with the recovery kit; `recoveryKeyText` is shown once, then dropped. */
export interface NewAccountWithRecovery extends NewAccountMaterial {
  recovery: { recoveryAuth: string; recoveryWrappedVaultKey: string; recoveryKeyText: string };
}

/** An item key sealed under some vault key: a note's wrappedDEK or a file's wrappedKey. */
export interface LegacyItemKey {
  kind: 'note' | 'file';
  id: string;
  wrappedKey: string;
}

/** `rewrapped`: the keys the old vault key opened, now sealed under the current one; `skipped`: the rest. */
export interface LegacyRewrapResult {
  rewrapped: LegacyItemKey[];
  skipped: string[];
}

/** What a password change sends (docs/api.md "Account and sessions"). */
export interface ChangedPasswordMaterial {
  /** authKey of the current password, proving it in the same request. */
  currentAuthKey: string;
  authKey: string;
  salt: string;
  kdfParams: KdfParams;
  wrappedVaultKey: string;
}

/** A new recovery key (docs/crypto-protocol.md "Recovery key") and the proof of the password that made it. */
export interface NewRecoveryKey {
  /** authKey of the password, sent with the setup call. */
  authKey: string;
  recoveryAuth: string;
  recoveryWrappedVaultKey: string;
  /** The 52-character key, shown once. */
  recoveryKeyText: string;
}

/**
 * The Settings screen's account operations, also run in the worker. Kept apart from CryptoService
 * so the sign-in fakes need not implement them; `WorkerCryptoService` and `CryptoOps` do.
 */
export interface AccountCryptoService {
  /** Unwraps the vault key with the current password and re-wraps it under the new one (new salt). */
  changePassword(
    currentPassword: string,
    newPassword: string,
    material: VaultMaterial,
  ): Promise<ChangedPasswordMaterial>;
  /** A fresh recovery key wrapping the vault key; DECRYPT_FAILED when the password is wrong. */
  createRecoveryKey(password: string, material: VaultMaterial): Promise<NewRecoveryKey>;
  /**
   * The password's authKey, after checking the password on this device by opening the stored vault
   * key (DECRYPT_FAILED when wrong), so a typo never reaches the server.
   */
  verifyPassword(password: string, material: VaultMaterial): Promise<string>;
}

export function isAccountCryptoService(service: unknown): service is AccountCryptoService {
  return hasMethods<AccountCryptoService>(service, ['changePassword', 'createRecoveryKey', 'verifyPassword']);
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
