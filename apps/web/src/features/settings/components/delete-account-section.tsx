import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/input';
import { PasswordInput } from '../../../components/password-input';
import { SettingsSection } from '../../../components/settings-section';
import { useApiClient } from '../../../lib/api-context';
import { useMe } from '../../../lib/session/get-me';
import { useSignOut } from '../../../lib/session/use-sign-out';
import { isWrongPassword } from '../../../workers/crypto-service';
import { deleteAccount } from '../api/account';
import { useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { SETTINGS_MESSAGES, failureText } from '../utils/settings-validation';

export const ACCOUNT_DELETED_NOTICE = 'Your account and everything in it have been deleted.';

/** Typed confirmation: DELETE, or the username (case-sensitive for DELETE, as typed for the username). */
export function confirmsDeletion(typed: string, username: string | undefined): boolean {
  const t = typed.trim();
  return t === 'DELETE' || (!!username && t === username);
}

/**
 * Danger zone: deletes the account for good (DELETE /api/auth/account {authKey}). The password is
 * checked on this device first, then the session ends here as on sign-out, with a notice on /login.
 */
export function DeleteAccountSection() {
  const api = useApiClient();
  const me = useMe();
  const signOut = useSignOut();
  const account = useAccountCrypto();
  const material = useVaultMaterial();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // The field is disabled while busy: focus it once the re-render has enabled it.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) passwordRef.current?.focus();
  }, [focusRequest]);
  const username = me.data?.user.username;
  const ready = password.length > 0 && confirmsDeletion(typed, username);

  const close = () => {
    setOpen(false);
    setPassword('');
    setTyped('');
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !ready) return;
    setError(null);
    setBusy(true);
    try {
      let authKey: string;
      try {
        authKey = await account().verifyPassword(password, await material());
      } catch (e) {
        if (isWrongPassword(e)) {
          setError(SETTINGS_MESSAGES.wrongPassword);
          setBusy(false);
          setFocusRequest((n) => n + 1);
          return;
        }
        throw e;
      }
      await deleteAccount(api, authKey);
      // Everything on the server is gone: clear this device like a sign-out and say why on /login.
      await signOut(ACCOUNT_DELETED_NOTICE);
    } catch (e) {
      setError(failureText(e, 'Failed to delete account'));
      setBusy(false);
    }
  };

  return (
    <SettingsSection
      title="Danger zone"
      tone="danger"
      description="Deleting your account removes your notes, files, sessions, backup codes and recovery options for good. Nobody, including Vault, can bring them back."
    >
      <div className="settings-actions">
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete Account
        </Button>
      </div>
      <Dialog
        open={open}
        role="alertdialog"
        size="sm"
        title="Delete your account?"
        description="This permanently deletes your account, every note and file, and signs out every device. It cannot be undone."
        {...(busy ? {} : { onClose: close })}
        closeOnBackdrop={!busy}
        initialFocusRef={passwordRef}
      >
        <form
          className="settings-form"
          onSubmit={(e) => void submit(e)}
          noValidate
          aria-label="Delete account"
        >
          <PasswordInput
            ref={passwordRef}
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
          />
          <TextField
            label={`Type DELETE${username ? ` or your username (${username})` : ''} to confirm`}
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
            disabled={busy}
          />
          {error ? <Banner tone="danger">{error}</Banner> : null}
          <div className="settings-actions settings-actions--end">
            <Button variant="secondary" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="danger"
              disabled={!ready}
              loading={busy}
              loadingLabel="Deleting..."
            >
              Delete my account
            </Button>
          </div>
        </form>
      </Dialog>
    </SettingsSection>
  );
}
