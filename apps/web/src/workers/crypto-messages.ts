import type {
  ChangedPasswordMaterial,
  LegacyItemKey,
  LegacyRewrapResult,
  PreparedRecoveryKey,
  NewAccountMaterial,
  NewRecoveryKey,
  PreloginMaterial,
  PreparedLogin,
  VaultMaterial,
} from './crypto-service';

/** The worker's request/answer protocol: one message per call, matched by `id`. */
export type CryptoRequest =
  | { id: number; op: 'prepareLogin'; password: string; material: PreloginMaterial }
  | { id: number; op: 'openVaultKey'; handle: string; wrappedVaultKey: string }
  | { id: number; op: 'discard'; handle: string }
  | { id: number; op: 'createAccount'; password: string }
  | { id: number; op: 'unlockVault'; password: string; material: VaultMaterial }
  | {
      id: number;
      op: 'changePassword';
      currentPassword: string;
      newPassword: string;
      material: VaultMaterial;
    }
  | { id: number; op: 'createRecoveryKey'; password: string; material: VaultMaterial }
  | { id: number; op: 'verifyPassword'; password: string; material: VaultMaterial }
  | { id: number; op: 'createAccountWithRecovery'; password: string }
  | {
      id: number;
      op: 'deriveRecoveryAnswersAuth';
      answers: string[];
      questionsSalt: string;
      kdfParams: PreloginMaterial['kdfParams'];
    }
  | { id: number; op: 'prepareRecoveryKey'; recoveryKeyText: string }
  | {
      id: number;
      op: 'createResetMaterial';
      password: string;
      recovery?: { handle: string; recoveryWrappedVaultKey: string };
    }
  | {
      id: number;
      op: 'rewrapLegacyItems';
      password: string;
      legacy: VaultMaterial;
      currentVaultKey: CryptoKey;
      items: LegacyItemKey[];
    };

export type CryptoResult =
  | PreparedLogin
  | CryptoKey
  | NewAccountMaterial
  | ChangedPasswordMaterial
  | NewRecoveryKey
  | string
  | PreparedRecoveryKey
  | LegacyRewrapResult
  | null;

export type CryptoResponse =
  | { id: number; ok: true; result: CryptoResult }
  | { id: number; ok: false; error: { code: string; message: string } };
