import {
  AAD,
  DEFAULT_KDF_PARAMS,
  createAccount,
  deriveAccountKeys,
  deriveAnswersAuth,
  deriveRecoveryAuth,
  importVaultKey,
  open,
  openRecoveryVaultKey,
  recoveryKeyFromText,
  rewrapFileKey,
  rewrapNoteKey,
  rewrapVaultKey,
  unlockVault,
  unwrapFileKey,
  unwrapNoteKey,
  validateKdfParams,
  VaultCryptoError,
  type KdfParams,
  changePassword,
  createRecoveryMaterial,
  generateRecoveryKey,
  recoveryKeyToText,
} from '@vault/crypto';
import type {
  AccountCryptoService,
  ChangedPasswordMaterial,
  NewRecoveryKey,
  CryptoService,
  LegacyItemKey,
  LegacyRewrapResult,
  NewAccountMaterial,
  NewAccountWithRecovery,
  PreloginMaterial,
  PreparedLogin,
  PreparedRecoveryKey,
  RecoveryCryptoService,
  VaultMaterial,
} from './crypto-service';

/** How long a sign-in's wrapping key waits for the server's answer (2FA included). */
const HANDLE_TTL_MS = 10 * 60 * 1000;

/**
 * The operations themselves, on @vault/crypto. They run inside the worker in production; tests
 * call them directly. Raw key bytes are wiped as soon as the CryptoKey exists.
 */
export class CryptoOps implements CryptoService, AccountCryptoService, RecoveryCryptoService {
  private readonly pending = new Map<string, { wrapKey: CryptoKey; expires: number }>();
  /** Recovery keys typed on the recovery screen, until the new password's material is made. */
  private readonly recoveryKeys = new Map<string, { raw: Uint8Array; expires: number }>();

  constructor(private readonly options: { kdfParams?: KdfParams; now?: () => number } = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private sweep(): void {
    const now = this.now();
    for (const [handle, p] of this.pending) if (p.expires <= now) this.pending.delete(handle);
    for (const [handle, r] of this.recoveryKeys) {
      if (r.expires > now) continue;
      r.raw.fill(0);
      this.recoveryKeys.delete(handle);
    }
  }

  async prepareLogin(password: string, material: PreloginMaterial): Promise<PreparedLogin> {
    this.sweep();
    // Refuses weak or absurd parameters before deriving anything (a hostile server cannot weaken the KDF).
    const params = validateKdfParams(material.kdfParams);
    const { authKey, wrapKey } = await deriveAccountKeys(password, material.salt, params);
    const handle = crypto.randomUUID();
    this.pending.set(handle, { wrapKey, expires: this.now() + HANDLE_TTL_MS });
    return { authKey, handle };
  }

  async openVaultKey(handle: string, wrappedVaultKey: string): Promise<CryptoKey> {
    this.sweep();
    const p = this.pending.get(handle);
    if (!p) throw new VaultCryptoError('BAD_INPUT', 'This sign-in has expired. Please try again.');
    this.pending.delete(handle);
    const raw = await open(p.wrapKey, wrappedVaultKey, AAD.vaultKey);
    try {
      return await importVaultKey(raw);
    } finally {
      raw.fill(0);
    }
  }

  discard(handle: string): void {
    this.pending.delete(handle);
    this.recoveryKeys.get(handle)?.raw.fill(0);
    this.recoveryKeys.delete(handle);
  }

  async createAccount(password: string): Promise<NewAccountMaterial> {
    return accountMaterial(
      await createAccount(password, { kdfParams: this.options.kdfParams ?? DEFAULT_KDF_PARAMS }),
    );
  }

  async unlockVault(password: string, material: VaultMaterial): Promise<CryptoKey> {
    const { vaultKey } = await unlockVault(password, {
      salt: material.salt,
      kdfParams: validateKdfParams(material.kdfParams),
      wrappedVaultKey: material.wrappedVaultKey,
    });
    return vaultKey;
  }

  async changePassword(
    currentPassword: string,
    newPassword: string,
    material: VaultMaterial,
  ): Promise<ChangedPasswordMaterial> {
    // New salt, the account's current (validated) parameters; the vault key itself does not change.
    const changed = await changePassword({
      oldPassword: currentPassword,
      newPassword,
      salt: material.salt,
      kdfParams: validateKdfParams(material.kdfParams),
      wrappedVaultKey: material.wrappedVaultKey,
    });
    return {
      currentAuthKey: changed.currentAuthKey,
      authKey: changed.authKey,
      salt: changed.salt,
      kdfParams: changed.kdfParams,
      wrappedVaultKey: changed.wrappedVaultKey,
    };
  }

  async createRecoveryKey(password: string, material: VaultMaterial): Promise<NewRecoveryKey> {
    const { authKey, wrapKey } = await deriveAccountKeys(
      password,
      material.salt,
      validateKdfParams(material.kdfParams),
    );
    // Opening the stored vault key proves the password before anything is made (DECRYPT_FAILED otherwise).
    const vaultKeyRaw = await open(wrapKey, material.wrappedVaultKey, AAD.vaultKey);
    const recoveryKey = generateRecoveryKey();
    try {
      const m = await createRecoveryMaterial(recoveryKey, vaultKeyRaw);
      return {
        authKey,
        recoveryAuth: m.recoveryAuth,
        recoveryWrappedVaultKey: m.recoveryWrappedVaultKey,
        recoveryKeyText: recoveryKeyToText(recoveryKey),
      };
    } finally {
      vaultKeyRaw.fill(0);
      recoveryKey.fill(0);
    }
  }

  async verifyPassword(password: string, material: VaultMaterial): Promise<string> {
    const { authKey, wrapKey } = await deriveAccountKeys(
      password,
      material.salt,
      validateKdfParams(material.kdfParams),
    );
    (await open(wrapKey, material.wrappedVaultKey, AAD.vaultKey)).fill(0);
    return authKey;
  }

  async createAccountWithRecovery(password: string): Promise<NewAccountWithRecovery> {
    const created = await createAccount(password, {
      kdfParams: this.options.kdfParams ?? DEFAULT_KDF_PARAMS,
      recovery: true,
    });
    const kit = created.recovery;
    if (!kit) throw new VaultCryptoError('BAD_INPUT', 'The recovery kit could not be made');
    const recovery = {
      recoveryAuth: kit.recoveryAuth,
      recoveryWrappedVaultKey: kit.recoveryWrappedVaultKey,
      recoveryKeyText: kit.recoveryKeyText,
    };
    kit.recoveryKey.fill(0);
    return { ...accountMaterial(created), recovery };
  }

  async deriveRecoveryAnswersAuth(
    answers: string[],
    questionsSalt: string,
    kdfParams: KdfParams | Record<string, unknown>,
  ): Promise<string> {
    // The account's parameters come from the server: the floors apply here too.
    return deriveAnswersAuth(answers, questionsSalt, validateKdfParams(kdfParams));
  }

  async prepareRecoveryKey(recoveryKeyText: string): Promise<PreparedRecoveryKey> {
    this.sweep();
    const raw = recoveryKeyFromText(recoveryKeyText);
    const recoveryAuth = await deriveRecoveryAuth(raw);
    const handle = crypto.randomUUID();
    this.recoveryKeys.set(handle, { raw, expires: this.now() + HANDLE_TTL_MS });
    return { recoveryAuth, handle };
  }

  async createResetMaterial(
    password: string,
    recovery?: { handle: string; recoveryWrappedVaultKey: string },
  ): Promise<NewAccountMaterial> {
    if (!recovery) return this.createAccount(password);
    this.sweep();
    const r = this.recoveryKeys.get(recovery.handle);
    if (!r) throw new VaultCryptoError('BAD_INPUT', 'This recovery has expired. Please start again.');
    this.recoveryKeys.delete(recovery.handle);
    let vaultKeyRaw: Uint8Array | null = null;
    try {
      vaultKeyRaw = await openRecoveryVaultKey(r.raw, recovery.recoveryWrappedVaultKey);
      const material = await rewrapVaultKey(password, vaultKeyRaw, {
        kdfParams: this.options.kdfParams ?? DEFAULT_KDF_PARAMS,
      });
      const vaultKey = await importVaultKey(vaultKeyRaw);
      return { ...material, vaultKey };
    } finally {
      vaultKeyRaw?.fill(0);
      r.raw.fill(0);
    }
  }

  async rewrapLegacyItems(
    password: string,
    legacy: VaultMaterial,
    currentVaultKey: CryptoKey,
    items: LegacyItemKey[],
  ): Promise<LegacyRewrapResult> {
    const { vaultKey: oldVaultKey } = await unlockVault(password, {
      salt: legacy.salt,
      kdfParams: validateKdfParams(legacy.kdfParams),
      wrappedVaultKey: legacy.wrappedVaultKey,
    });
    const rewrapped: LegacyItemKey[] = [];
    const skipped: string[] = [];
    for (const item of items) {
      // Already under the current key (the legacy key may open it too if the two are the same):
      // nothing to move, and re-sealing it would only churn the server.
      if (await opensUnder(currentVaultKey, item)) {
        skipped.push(item.id);
        continue;
      }
      try {
        const rewrap = item.kind === 'note' ? rewrapNoteKey : rewrapFileKey;
        const wrappedKey = await rewrap(oldVaultKey, currentVaultKey, item.id, item.wrappedKey);
        rewrapped.push({ ...item, wrappedKey });
      } catch {
        // Sealed under another key (the current one, or an even older one): not this key's item.
        skipped.push(item.id);
      }
    }
    return { rewrapped, skipped };
  }
}

/** Only the sign-up material of what createAccount made (the raw recovery key stays behind). */
function accountMaterial(created: NewAccountMaterial): NewAccountMaterial {
  return {
    salt: created.salt,
    kdfParams: created.kdfParams,
    authKey: created.authKey,
    wrappedVaultKey: created.wrappedVaultKey,
    vaultKey: created.vaultKey,
  };
}

/** Whether an item key opens under `vaultKey` (its AAD binds it to the item's id and kind). */
async function opensUnder(vaultKey: CryptoKey, item: LegacyItemKey): Promise<boolean> {
  try {
    if (item.kind === 'note') await unwrapNoteKey(vaultKey, item.id, item.wrappedKey);
    else await unwrapFileKey(vaultKey, item.id, item.wrappedKey);
    return true;
  } catch {
    return false;
  }
}
