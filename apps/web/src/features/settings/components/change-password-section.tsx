import { useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner';
import { BoundFields, type BoundField } from '../../../components/bound-fields';
import { Button } from '../../../components/button';
import { SettingsSection } from '../../../components/settings-section';
import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { meQueryKey } from '../../../lib/session/get-me';
import { useFocusRequest } from '../../../lib/use-focus-request';
import { changePassword } from '../api/account';
import { unlessWrongPassword, useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { SETTINGS_MESSAGES, failureText, validateChangePassword } from '../utils/settings-validation';
import { SettingsForm, SettingsProgress } from './settings-form';

type Feedback = { tone: 'success' | 'danger'; text: string } | null;

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

const NEW_PASSWORD_FIELDS: BoundField<keyof typeof EMPTY>[] = [
  {
    field: 'newPassword',
    password: true,
    label: 'New password',
    autoComplete: 'new-password',
    hint: 'At least 8 characters, with a lowercase letter, an uppercase letter and a number.',
  },
  { field: 'confirmPassword', password: true, label: 'Confirm new password', autoComplete: 'new-password' },
];

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
  const [fields, setFields] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const currentRef = useRef<HTMLInputElement>(null);
  const focusCurrent = useFocusRequest(currentRef, autoFocus);

  const set = (key: keyof typeof fields, value: string) => setFields((f) => ({ ...f, [key]: value }));

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
      const body = await unlessWrongPassword(async () =>
        account().changePassword(fields.currentPassword, fields.newPassword, await material()),
      );
      if (body === null) {
        setFeedback({ tone: 'danger', text: SETTINGS_MESSAGES.wrongCurrentPassword });
        focusCurrent();
        return;
      }
      await changePassword(api, body);
      // The stored salt and wrapped key changed: the next unlock must read the new ones.
      cache.invalidate(meQueryKey);
      setFields(EMPTY);
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
      <SettingsForm label="Change password" onSubmit={submit}>
        <BoundFields
          fields={[
            {
              field: 'currentPassword',
              password: true,
              ref: currentRef,
              label: 'Current password',
              autoComplete: 'current-password',
            },
            ...NEW_PASSWORD_FIELDS,
          ]}
          values={fields}
          onEdit={set}
          disabled={busy}
        />
        {busy ? (
          <SettingsProgress>
            Deriving your keys on this device and re-wrapping your vault key...
          </SettingsProgress>
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
      </SettingsForm>
    </SettingsSection>
  );
}
