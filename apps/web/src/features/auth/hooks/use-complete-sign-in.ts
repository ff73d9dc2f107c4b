import type { AuthResponse } from '@vault/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSessionStore } from '../../../lib/session/session-context';
import { useCrypto } from '../../../workers/crypto-context';

/** Opens the vault key with the sign-in's wrapping key, then stores the user and goes to /vault. */
export function useCompleteSignIn() {
  const crypto = useCrypto();
  const session = useSessionStore();
  const navigate = useNavigate();

  const openKey = useCallback(
    (handle: string, answer: AuthResponse) => crypto.openVaultKey(handle, answer.wrappedVaultKey),
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
