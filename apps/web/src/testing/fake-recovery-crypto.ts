import { compactRecoveryKey } from '../features/recovery/utils/recovery-key-text';
import type {
  LegacyItemKey,
  LegacyRewrapResult,
  NewAccountMaterial,
  NewAccountWithRecovery,
  PreparedRecoveryKey,
  RecoveryCryptoService,
  VaultMaterial,
} from '../workers/crypto-service';
import { fakeHex, fakeVaultKey, wrongPasswordError, type FakeCryptoService } from './fake-crypto';

/** The recovery key the fake "generates" (52 base32 characters in groups of 4). */
export const FAKE_RECOVERY_KEY = 'ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567-ABCD-EFGH-IJKL-MNOP-QRST';

export type FakeRecoveryCrypto = FakeCryptoService &
  RecoveryCryptoService & {
    /** The fresh vault key a reset without the recovery key makes. */
    readonly newVaultKey: CryptoKey;
    /** The old password that opens a legacy vault key. */
    oldPassword: string;
    recoveryAuthFor(text: string): string;
    answersAuthFor(answers: string[]): string;
  };

/**
 * Adds the recovery operations to the app's fake crypto (no Argon2id): auth values are hex encodings
 * of their input, a reset with the recovery key gives back the account's vault key, one without it a
 * new one, and a legacy key opens only with `oldPassword`, moving keys that start with "old".
 */
export function withRecoveryCrypto(fake: FakeCryptoService): FakeRecoveryCrypto {
  const f = fake as FakeRecoveryCrypto;
  const material = (password: string, vaultKey: CryptoKey): NewAccountMaterial => ({
    salt: '1'.repeat(32),
    kdfParams: { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
    authKey: fake.authKeyFor(password),
    wrappedVaultKey: `${'e'.repeat(96)}:${'f'.repeat(24)}`,
    vaultKey,
  });
  Object.assign(f, {
    newVaultKey: fakeVaultKey('new-vault-key'),
    oldPassword: 'Old-password-1',
    recoveryAuthFor: (text: string) => fakeHex(`rk:${compactRecoveryKey(text)}`),
    answersAuthFor: (answers: string[]) => fakeHex(`answers:${answers.join('|')}`),
    async createAccountWithRecovery(password: string): Promise<NewAccountWithRecovery> {
      fake.calls.push('createAccountWithRecovery');
      return {
        ...material(password, fake.vaultKey),
        recovery: {
          recoveryAuth: f.recoveryAuthFor(FAKE_RECOVERY_KEY),
          recoveryWrappedVaultKey: `${'a'.repeat(96)}:${'b'.repeat(24)}`,
          recoveryKeyText: FAKE_RECOVERY_KEY,
        },
      };
    },
    async deriveRecoveryAnswersAuth(answers: string[], questionsSalt: string): Promise<string> {
      fake.calls.push(`deriveRecoveryAnswersAuth:${questionsSalt}`);
      return f.answersAuthFor(answers);
    },
    async prepareRecoveryKey(text: string): Promise<PreparedRecoveryKey> {
      fake.calls.push('prepareRecoveryKey');
      return { recoveryAuth: f.recoveryAuthFor(text), handle: 'recovery-handle' };
    },
    async createResetMaterial(
      password: string,
      recovery?: { handle: string; recoveryWrappedVaultKey: string },
    ): Promise<NewAccountMaterial> {
      fake.calls.push(`createResetMaterial:${recovery ? `keep:${recovery.recoveryWrappedVaultKey}` : 'new'}`);
      return material(password, recovery ? fake.vaultKey : f.newVaultKey);
    },
    async rewrapLegacyItems(
      password: string,
      legacy: VaultMaterial,
      _current: CryptoKey,
      items: LegacyItemKey[],
    ): Promise<LegacyRewrapResult> {
      fake.calls.push(`rewrapLegacyItems:${legacy.wrappedVaultKey}`);
      if (password !== f.oldPassword) throw wrongPasswordError();
      const rewrapped = items
        .filter((i) => i.wrappedKey.startsWith('old'))
        .map((i) => ({ ...i, wrappedKey: `new${i.wrappedKey.slice(3)}` }));
      const skipped = items.filter((i) => !i.wrappedKey.startsWith('old')).map((i) => i.id);
      return { rewrapped, skipped };
    },
  });
  return f;
}
