import type { CryptoRequest, CryptoResponse, CryptoResult } from './crypto-messages';
import {
  CryptoOperationError,
  type AccountCryptoService,
  type LegacyItemKey,
  type LegacyRewrapResult,
  type NewAccountWithRecovery,
  type PreparedRecoveryKey,
  type RecoveryCryptoService,
  type ChangedPasswordMaterial,
  type NewRecoveryKey,
  type CryptoService,
  type NewAccountMaterial,
  type PreloginMaterial,
  type PreparedLogin,
  type VaultMaterial,
} from './crypto-service';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Pending = { resolve: (r: CryptoResult) => void; reject: (e: Error) => void };

/** Talks to the crypto worker; started on first use, one request in flight per call. */
export class WorkerCryptoService implements CryptoService, AccountCryptoService, RecoveryCryptoService {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (typeof Worker === 'undefined') {
      throw new CryptoOperationError(
        'UNSUPPORTED_ENVIRONMENT',
        'This browser cannot run Vault (no Web Workers).',
      );
    }
    const worker = new Worker(new URL('./crypto.worker.ts', import.meta.url), {
      type: 'module',
      name: 'vault-crypto',
    });
    worker.addEventListener('message', (event: MessageEvent<CryptoResponse>) => {
      const msg = event.data;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new CryptoOperationError(msg.error.code, msg.error.message));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const error = new CryptoOperationError(
        'UNSUPPORTED_ENVIRONMENT',
        'The encryption worker could not start. Please reload the page.',
      );
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      this.worker?.terminate();
      this.worker = null;
    });
    this.worker = worker;
    return worker;
  }

  private call(req: DistributiveOmit<CryptoRequest, 'id'>): Promise<CryptoResult> {
    const id = this.nextId++;
    return new Promise<CryptoResult>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id } as CryptoRequest);
    });
  }

  async prepareLogin(password: string, material: PreloginMaterial): Promise<PreparedLogin> {
    return (await this.call({ op: 'prepareLogin', password, material })) as PreparedLogin;
  }

  async openVaultKey(handle: string, wrappedVaultKey: string): Promise<CryptoKey> {
    return (await this.call({ op: 'openVaultKey', handle, wrappedVaultKey })) as CryptoKey;
  }

  discard(handle: string): void {
    if (this.worker) void this.call({ op: 'discard', handle }).catch(() => undefined);
  }

  async createAccount(password: string): Promise<NewAccountMaterial> {
    return (await this.call({ op: 'createAccount', password })) as NewAccountMaterial;
  }

  async unlockVault(password: string, material: VaultMaterial): Promise<CryptoKey> {
    return (await this.call({ op: 'unlockVault', password, material })) as CryptoKey;
  }

  async changePassword(
    currentPassword: string,
    newPassword: string,
    material: VaultMaterial,
  ): Promise<ChangedPasswordMaterial> {
    return (await this.call({
      op: 'changePassword',
      currentPassword,
      newPassword,
      material,
    })) as ChangedPasswordMaterial;
  }

  async createRecoveryKey(password: string, material: VaultMaterial): Promise<NewRecoveryKey> {
    return (await this.call({ op: 'createRecoveryKey', password, material })) as NewRecoveryKey;
  }

  async verifyPassword(password: string, material: VaultMaterial): Promise<string> {
    return (await this.call({ op: 'verifyPassword', password, material })) as string;
  }

  async createAccountWithRecovery(password: string): Promise<NewAccountWithRecovery> {
    return (await this.call({ op: 'createAccountWithRecovery', password })) as NewAccountWithRecovery;
  }

  async deriveRecoveryAnswersAuth(
    answers: string[],
    questionsSalt: string,
    kdfParams: PreloginMaterial['kdfParams'],
  ): Promise<string> {
    return (await this.call({
      op: 'deriveRecoveryAnswersAuth',
      answers,
      questionsSalt,
      kdfParams,
    })) as string;
  }

  async prepareRecoveryKey(recoveryKeyText: string): Promise<PreparedRecoveryKey> {
    return (await this.call({ op: 'prepareRecoveryKey', recoveryKeyText })) as PreparedRecoveryKey;
  }

  async createResetMaterial(
    password: string,
    recovery?: { handle: string; recoveryWrappedVaultKey: string },
  ): Promise<NewAccountMaterial> {
    const req = recovery
      ? { op: 'createResetMaterial' as const, password, recovery }
      : { op: 'createResetMaterial' as const, password };
    return (await this.call(req)) as NewAccountMaterial;
  }

  async rewrapLegacyItems(
    password: string,
    legacy: VaultMaterial,
    currentVaultKey: CryptoKey,
    items: LegacyItemKey[],
  ): Promise<LegacyRewrapResult> {
    const req = { op: 'rewrapLegacyItems' as const, password, legacy, currentVaultKey, items };
    return (await this.call(req)) as LegacyRewrapResult;
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}

/** The production crypto: every operation in the worker (the main bundle carries no Argon2id). */
export function createCryptoService(): CryptoService {
  return new WorkerCryptoService();
}
