import { useState, type FormEvent } from 'react';
import { Banner, ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { PasswordInput } from '../../../components/password-input';
import { SettingsSection } from '../../../components/settings-section';
import { useApiClient } from '../../../lib/api-context';
import { useMe } from '../../../lib/session/get-me';
import { setupRecoveryKey } from '../api/recovery';
import { useAction } from '../hooks/use-action';
import { unlessWrongPassword, useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { recoveryKitFileName, recoveryKitText } from '../utils/kit-text';
import { SETTINGS_MESSAGES } from '../utils/settings-validation';
import { CopyDownload } from './secret-panel';
import { SettingsForm, SettingsProgress } from './settings-form';

/**
 * Recovery key (docs/crypto-protocol.md "Recovery key"): the worker opens the vault key with the password,
 * makes a fresh 32-byte key and wraps the vault key under it; the server stores recoveryAuth and the
 * wrapped key (replacing any earlier ones). The key is shown once, with a downloadable kit.
 */
export function RecoveryKeySection({
  onDownload,
}: {
  onDownload?: (fileName: string, body: string) => void;
}) {
  const api = useApiClient();
  const me = useMe();
  const account = useAccountCrypto();
  const material = useVaultMaterial();
  const [password, setPassword] = useState('');
  const { busy, error, setError, run } = useAction();
  const [created, setCreated] = useState<{ key: string; at: Date } | null>(null);
  const who = me.data ? `${me.data.user.username} <${me.data.user.email}>` : '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) {
      setError(SETTINGS_MESSAGES.passwordRequired);
      return;
    }
    await run('Failed to create the recovery key', async () => {
      const made = await unlessWrongPassword(async () =>
        account().createRecoveryKey(password, await material()),
      );
      if (made === null) {
        setError(SETTINGS_MESSAGES.wrongPassword);
        return;
      }
      await setupRecoveryKey(api, {
        authKey: made.authKey,
        recoveryAuth: made.recoveryAuth,
        recoveryWrappedVaultKey: made.recoveryWrappedVaultKey,
      });
      setPassword('');
      setCreated({ key: made.recoveryKeyText, at: new Date() });
    });
  };

  return (
    <SettingsSection
      title="Recovery key"
      description="The only way to get your notes and files back if you forget your password: a key you download and keep somewhere safe. Creating a new key replaces the old one, which stops working."
    >
      {created ? (
        <div className="secret-panel" role="group" aria-label="Your recovery key">
          <Banner tone="warning" title="Save your recovery key now">
            It is shown only once. Vault cannot show it again or recover your data without it.
          </Banner>
          <code className="recovery-key" data-testid="recovery-key">
            {created.key}
          </code>
          <CopyDownload
            copyLabel="Copy key"
            text={created.key}
            fileName={recoveryKitFileName(created.at)}
            fileBody={() => recoveryKitText(created.key, who, created.at)}
            {...(onDownload ? { onDownload } : {})}
          />
          <div>
            <Button onClick={() => setCreated(null)}>I have saved my recovery key</Button>
          </div>
        </div>
      ) : (
        <SettingsForm label="Create recovery key" onSubmit={submit}>
          <PasswordInput
            label="Password"
            hint="Your password opens the vault key on this device so it can be wrapped under the new recovery key."
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
          />
          {busy ? <SettingsProgress>Creating your recovery key on this device...</SettingsProgress> : null}
          <ErrorBanner error={error} />
          <div className="settings-actions">
            <Button type="submit" loading={busy} loadingLabel="Creating...">
              Create recovery key
            </Button>
          </div>
        </SettingsForm>
      )}
    </SettingsSection>
  );
}
