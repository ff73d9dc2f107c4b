import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { PasswordInput } from '../../../components/password-input';
import { SettingsSection } from '../../../components/settings-section';
import { Spinner } from '../../../components/spinner';
import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { meQueryKey } from '../../../lib/session/get-me';
import { isWrongPassword, type ChangedPasswordMaterial } from '../../../workers/crypto-service';
import { changePassword } from '../api/account';
import { useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { SETTINGS_MESSAGES, failureText, validateChangePassword } from '../utils/settings-validation';

type Feedback = { tone: 'success' | 'danger'; text: string } | null;

/**
 * Change password (docs/crypto-protocol.md "Flows"): the worker opens the vault key with the
 * current password and re-wraps it under the new one with a new salt; the server gets only the two
 * authKeys and the new wrapped key, and signs out every other session. Notes and files are untouched.
 */
export function ChangePasswordSection({ autoFocus = false }: { autoFocus?: boolean }) {
  const api = useApiClient();
  const cache = useQueryCache();
  const account = useAccountCrypto();
  const material = useVaultMaterial();
  const [fields, setFields] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const currentRef = useRef<HTMLInputElement>(null);

  // Counted focus requests: the field is disabled while busy, so it is focused after the re-render.
  const [focusRequest, setFocusRequest] = useState(autoFocus ? 1 : 0);
  useEffect(() => {
    if (focusRequest > 0) currentRef.current?.focus();
  }, [focusRequest]);

  const set = (key: keyof typeof fields) => (event: ChangeEvent<HTMLInputElement>) =>
    setFields((f) => ({ ...f, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateChangePassword(fields);
    if (invalid) {
      setFeedback({ tone: 'danger', text: invalid });
      return;
    }
    setFeedback(null);
    setBusy(true);
    try {
      let body: ChangedPasswordMaterial;
      try {
        body = await account().changePassword(fields.currentPassword, fields.newPassword, await material());
      } catch (error) {
        if (isWrongPassword(error)) {
          setFeedback({ tone: 'danger', text: SETTINGS_MESSAGES.wrongCurrentPassword });
          setFocusRequest((n) => n + 1);
          return;
        }
        throw error;
      }
      await changePassword(api, body);
      // The stored salt and wrapped key changed: the next unlock must read the new ones.
      cache.invalidate(meQueryKey);
      setFields({ currentPassword: '', newPassword: '', confirmPassword: '' });
      setFeedback({ tone: 'success', text: SETTINGS_MESSAGES.passwordChanged });
    } catch (error) {
      setFeedback({ tone: 'danger', text: failureText(error, 'Failed to change password') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection
      title="Change password"
      description="Your vault key is re-wrapped under the new password on this device; your notes and files are not re-encrypted. Every other device you are signed in on is signed out."
    >
      <form
        className="settings-form"
        onSubmit={(e) => void submit(e)}
        noValidate
        aria-label="Change password"
      >
        <PasswordInput
          ref={currentRef}
          label="Current password"
          autoComplete="current-password"
          value={fields.currentPassword}
          onChange={set('currentPassword')}
          disabled={busy}
        />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          value={fields.newPassword}
          onChange={set('newPassword')}
          disabled={busy}
          hint="At least 8 characters, with a lowercase letter, an uppercase letter and a number."
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          value={fields.confirmPassword}
          onChange={set('confirmPassword')}
          disabled={busy}
        />
        {busy ? (
          <p className="settings-progress" role="status">
            <Spinner size="sm" /> Deriving your keys on this device and re-wrapping your vault key...
          </p>
        ) : null}
        {feedback?.tone === 'success' ? (
          <Banner tone="success" title={feedback.text}>
            Your other devices have been signed out.
          </Banner>
        ) : feedback ? (
          <Banner tone="danger">{feedback.text}</Banner>
        ) : null}
        <div className="settings-actions">
          <Button type="submit" loading={busy} loadingLabel="Changing password...">
            Change password
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
