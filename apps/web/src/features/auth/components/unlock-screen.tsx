import type { MeResponse } from '@vault/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { AuthLayout } from '../../../components/auth-layout';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { EmailAddress } from '../../../components/email-address';
import { PasswordInput } from '../../../components/password-input';
import { useApiClient } from '../../../lib/api-context';
import { getMe } from '../../../lib/session/get-me';
import { useSession, useSessionStore } from '../../../lib/session/session-context';
import { useSignOut } from '../../../lib/session/use-sign-out';
import { useCrypto } from '../../../workers/crypto-context';
import { isWrongPassword } from '../../../workers/crypto-service';

export const UNLOCK_MESSAGES = {
  required: 'Please enter your password',
  invalid: 'Invalid password',
  failed: 'Could not unlock your vault',
} as const;

/**
 * After a reload the session is still valid (refresh cookie) but the vault key is gone from
 * memory. The password unwraps it again here, on this device: a wrong password fails the
 * AES-GCM open of the wrapped key, and nothing about the attempt is sent to the server.
 * `onUnlockStart` runs as the password is submitted, before the key derivation: the app starts
 * downloading the sealed notes then, so both run side by side (app/routes/guards.tsx).
 */
export function UnlockScreen({ onUnlockStart }: { onUnlockStart?: () => void }) {
  const api = useApiClient();
  const crypto = useCrypto();
  const session = useSessionStore();
  const { user } = useSession();
  const signOut = useSignOut();
  const [password, setPassword] = useState('');
  const [stayUnlocked, setStayUnlocked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [me, setMe] = useState<MeResponse | null>(null);

  // Fetch the vault material early: this also confirms the session is still alive.
  useEffect(() => {
    let live = true;
    getMe(api).then(
      (answer) => {
        if (!live) return;
        setMe(answer);
        session.updateUser(answer.user);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, session]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) {
      setError(UNLOCK_MESSAGES.required);
      return;
    }
    setError(null);
    setBusy(true);
    // Whatever the app downloads meanwhile (the sealed notes) runs while the password is stretched.
    onUnlockStart?.();
    try {
      const answer = me ?? (await getMe(api));
      if (!me) {
        setMe(answer);
        session.updateUser(answer.user);
      }
      const vaultKey = await crypto.unlockVault(password, answer.vault);
      setPassword('');
      await session.unlock(vaultKey, stayUnlocked);
    } catch (e) {
      setError(
        isWrongPassword(e)
          ? UNLOCK_MESSAGES.invalid
          : e instanceof Error && e.message
            ? e.message
            : UNLOCK_MESSAGES.failed,
      );
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Unlock your vault"
      subtitle={
        <>
          Signed in as{' '}
          <strong className="auth__email">
            <EmailAddress email={user?.email ?? ''} />
          </strong>
          . Enter your password to decrypt your vault on this device.
        </>
      }
      footer={
        <p>
          Not you?{' '}
          <button type="button" className="link-btn" onClick={() => void signOut()}>
            Sign out
          </button>
        </p>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <ErrorBanner error={error} />
        {/* For password managers: which account this password belongs to. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user?.email ?? ''}
          readOnly
          hidden
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={busy}
          autoFocus
        />
        <div className="form__row">
          <Checkbox
            label="Stay unlocked on this device"
            description="Keeps the vault key in this browser so a reload doesn't ask for your password. Use only on a device you trust."
            checked={stayUnlocked}
            onChange={(e) => setStayUnlocked(e.target.checked)}
            disabled={busy}
          />
        </div>
        <Button type="submit" block size="lg" loading={busy} loadingLabel="Unlocking...">
          Unlock
        </Button>
      </form>
    </AuthLayout>
  );
}
