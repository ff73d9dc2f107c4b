import {
  AAD,
  DEFAULT_KDF_PARAMS,
  createAccount,
  deriveAccountKeys,
  importVaultKey,
  open,
  unlockVault,
  validateKdfParams,
  VaultCryptoError,
  type KdfParams,
} from '@vault/crypto';
import type {
  CryptoService,
  NewAccountMaterial,
  PreloginMaterial,
  PreparedLogin,
  VaultMaterial,
} from './crypto-service';

/** How long a sign-in's wrapping key waits for the server's answer (2FA included). */
const HANDLE_TTL_MS = 10 * 60 * 1000;

/**
 * The operations themselves, on @vault/crypto. They run inside the worker in production; tests
 * call them directly. Raw key bytes are wiped as soon as the CryptoKey exists.
 */
export class CryptoOps implements CryptoService {
  private readonly pending = new Map<string, { wrapKey: CryptoKey; expires: number }>();

  constructor(private readonly options: { kdfParams?: KdfParams; now?: () => number } = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private sweep(): void {
    const now = this.now();
    for (const [handle, p] of this.pending) if (p.expires <= now) this.pending.delete(handle);
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
  }

  async createAccount(password: string): Promise<NewAccountMaterial> {
    const created = await createAccount(password, {
      kdfParams: this.options.kdfParams ?? DEFAULT_KDF_PARAMS,
    });
    return {
      salt: created.salt,
      kdfParams: created.kdfParams,
      authKey: created.authKey,
      wrappedVaultKey: created.wrappedVaultKey,
      vaultKey: created.vaultKey,
    };
  }

  async unlockVault(password: string, material: VaultMaterial): Promise<CryptoKey> {
    const { vaultKey } = await unlockVault(password, {
      salt: material.salt,
      kdfParams: validateKdfParams(material.kdfParams),
      wrappedVaultKey: material.wrappedVaultKey,
    });
    return vaultKey;
  }
}
