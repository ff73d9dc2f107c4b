import { useCallback } from 'react';
import { useApiClient } from '../../../lib/api-context';
import { getMe } from '../../../lib/session/get-me';
import { useCrypto } from '../../../workers/crypto-context';
import {
  CryptoOperationError,
  isAccountCryptoService,
  isWrongPassword,
  type AccountCryptoService,
  type RecoveryCryptoService,
  type VaultMaterial,
} from '../../../workers/crypto-service';

/** The account operations of the crypto worker (every key derivation happens on this device). */
export function useAccountCrypto(): () => AccountCryptoService {
  const service = useCrypto();
  return useCallback(() => {
    if (!isAccountCryptoService(service)) {
      throw new CryptoOperationError('UNSUPPORTED_ENVIRONMENT', 'Account operations are not available.');
    }
    return service;
  }, [service]);
}

/** answersAuth of security answers, run in the worker (the recovery screen's operation, reused). */
export function useAnswersAuth(): RecoveryCryptoService['deriveRecoveryAnswersAuth'] {
  const service = useCrypto() as Partial<RecoveryCryptoService>;
  return useCallback(
    (answers, questionsSalt, kdfParams) => {
      if (typeof service.deriveRecoveryAnswersAuth !== 'function') {
        throw new CryptoOperationError('UNSUPPORTED_ENVIRONMENT', 'Account operations are not available.');
      }
      return service.deriveRecoveryAnswersAuth(answers, questionsSalt, kdfParams);
    },
    [service],
  );
}

/**
 * The account's current password material ({salt, kdfParams, wrappedVaultKey}), read fresh from
 * GET /auth/me: after a password change on another device the cached copy would be stale.
 */
export function useVaultMaterial(): () => Promise<VaultMaterial> {
  const api = useApiClient();
  return useCallback(async () => {
    return (await getMe(api)).vault;
  }, [api]);
}

/**
 * Runs a worker operation that opens the vault key with a typed password: its result, or null
 * when the password is wrong (the caller says so); any other failure still throws.
 */
export async function unlessWrongPassword<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    if (isWrongPassword(e)) return null;
    throw e;
  }
}
