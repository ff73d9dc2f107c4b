import type { CryptoOps } from './crypto-ops';
import type { CryptoSelfTestService } from './crypto-self-test-service';
import {
  CryptoOperationError,
  type AccountCryptoService,
  type CryptoService,
  type RecoveryCryptoService,
} from './crypto-service';
import { WorkerClient } from './worker-rpc';

/** Talks to the crypto worker (crypto.worker.ts, which serves CryptoOps); started on first use. */
export class WorkerCryptoService
  implements CryptoService, AccountCryptoService, RecoveryCryptoService, CryptoSelfTestService
{
  private readonly rpc = new WorkerClient<CryptoOps & CryptoSelfTestService>({
    start: () => {
      if (typeof Worker === 'undefined') {
        throw new CryptoOperationError(
          'UNSUPPORTED_ENVIRONMENT',
          'This browser cannot run Vault (no Web Workers).',
        );
      }
      return new Worker(new URL('./crypto.worker.ts', import.meta.url), {
        type: 'module',
        name: 'vault-crypto',
      });
    },
  });

  readonly prepareLogin = this.rpc.method('prepareLogin');
  readonly openVaultKey = this.rpc.method('openVaultKey');
  readonly createAccount = this.rpc.method('createAccount');
  readonly unlockVault = this.rpc.method('unlockVault');
  readonly changePassword = this.rpc.method('changePassword');
  readonly createRecoveryKey = this.rpc.method('createRecoveryKey');
  readonly verifyPassword = this.rpc.method('verifyPassword');
  readonly createAccountWithRecovery = this.rpc.method('createAccountWithRecovery');
  readonly deriveRecoveryAnswersAuth = this.rpc.method('deriveRecoveryAnswersAuth');
  readonly prepareRecoveryKey = this.rpc.method('prepareRecoveryKey');
  readonly createResetMaterial = this.rpc.method('createResetMaterial');
  readonly rewrapLegacyItems = this.rpc.method('rewrapLegacyItems');
  readonly runSelfTest = this.rpc.method('runSelfTest');
  readonly benchmarkKdf = this.rpc.method('benchmarkKdf');
  readonly benchmarkAesGcm = this.rpc.method('benchmarkAesGcm');
  readonly benchmarkNoteDecrypt = this.rpc.method('benchmarkNoteDecrypt');

  /** Only a running worker holds handles; nothing waits for the answer. */
  discard(handle: string): void {
    this.rpc.notify('discard', handle);
  }

  terminate(): void {
    this.rpc.terminate();
  }
}

/** The production crypto: every operation in the worker (the main bundle carries no Argon2id). */
export function createCryptoService(): CryptoService {
  return new WorkerCryptoService();
}
