import type { AuthResponse } from '@vault/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSessionStore } from '../../../lib/session/session-context';
import { useCrypto } from '../../../workers/crypto-context';
import { isWrongPassword } from '../../../workers/crypto-service';

/**
 * The server took the password's authKey, so the password is right: a vault key that does not open
 * with it was changed on the server, or is another account's (docs/threat-model.md).
 */
export const VAULT_KEY_REFUSED =
  'The server accepted your password but sent a vault key that does not open with it (changed, or another account’s). Nothing was unlocked.';

/** Opens the vault key with the sign-in's wrapping key, then stores the user and goes to /vault. */
export function useCompleteSignIn() {
  const crypto = useCrypto();
  const session = useSessionStore();
  const navigate = useNavigate();

  const openKey = useCallback(
    async (handle: string, answer: AuthResponse) => {
      try {
        return await crypto.openVaultKey(handle, answer.wrappedVaultKey);
      } catch (error) {
        throw isWrongPassword(error) ? new Error(VAULT_KEY_REFUSED) : error;
      }
    },
    [crypto],
  );

  const finish = useCallback(
    async (answer: AuthResponse, vaultKey: CryptoKey, stayUnlocked: boolean) => {
      await session.signIn({ user: answer.user, access: answer.access, vaultKey, stayUnlocked });
      navigate('/vault', { replace: true });
    },
    [session, navigate],
  );

  return { openKey, finish };
}
