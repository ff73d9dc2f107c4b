import { useRef, useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/input';
import { PasswordInput } from '../../../components/password-input';
import { SettingsSection } from '../../../components/settings-section';
import { useApiClient } from '../../../lib/api-context';
import { useMe } from '../../../lib/session/get-me';
import { useSignOut } from '../../../lib/session/use-sign-out';
import { useFocusRequest } from '../../../lib/use-focus-request';
import { deleteAccount } from '../api/account';
import { unlessWrongPassword, useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { SETTINGS_MESSAGES, failureText } from '../utils/settings-validation';
import { DialogFormActions, SettingsForm } from './settings-form';

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
  const focusPassword = useFocusRequest(passwordRef);
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
      const authKey = await unlessWrongPassword(async () =>
        account().verifyPassword(password, await material()),
      );
      if (authKey === null) {
        setError(SETTINGS_MESSAGES.wrongPassword);
        setBusy(false);
        focusPassword();
        return;
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
        <SettingsForm label="Delete account" onSubmit={submit}>
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
          <ErrorBanner error={error} />
          <DialogFormActions
            busy={busy}
            onCancel={close}
            submitLabel="Delete my account"
            busyLabel="Deleting..."
            danger
            disabled={!ready}
          />
        </SettingsForm>
      </Dialog>
    </SettingsSection>
  );
}
