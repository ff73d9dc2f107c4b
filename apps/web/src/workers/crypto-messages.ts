import type { NewAccountMaterial, PreloginMaterial, PreparedLogin, VaultMaterial } from './crypto-service';

/** The worker's request/answer protocol: one message per call, matched by `id`. */
export type CryptoRequest =
  | { id: number; op: 'prepareLogin'; password: string; material: PreloginMaterial }
  | { id: number; op: 'openVaultKey'; handle: string; wrappedVaultKey: string }
  | { id: number; op: 'discard'; handle: string }
  | { id: number; op: 'createAccount'; password: string }
  | { id: number; op: 'unlockVault'; password: string; material: VaultMaterial };

export type CryptoResult = PreparedLogin | CryptoKey | NewAccountMaterial | null;

export type CryptoResponse =
  | { id: number; ok: true; result: CryptoResult }
  | { id: number; ok: false; error: { code: string; message: string } };
