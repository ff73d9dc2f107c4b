import { useRef, useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { isApiError } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useFocusRequest } from '../../../lib/use-focus-request';
import { verifyTwoFactor } from '../api/two-factor';
import { groupSecret, parseOtpauthUrl } from '../utils/otpauth';
import { SETTINGS_MESSAGES, failureText, isSixDigits } from '../utils/settings-validation';
import { QrCode } from './qr-code';
import { SettingsForm, VerificationCodeField } from './settings-form';

/** Turning 2FA on: the QR code, the key as text, and the first code (which answers the backup codes). */
export function TwoFactorSetup({
  otpauthUrl,
  onVerified,
  onCancel,
}: {
  otpauthUrl: string;
  onVerified: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const api = useApiClient();
  const details = parseOtpauthUrl(otpauthUrl);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const focusCode = useFocusRequest(codeRef);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!code) {
      setError(SETTINGS_MESSAGES.codeRequired);
      return;
    }
    if (!isSixDigits(code)) return;
    setError(null);
    setBusy(true);
    try {
      onVerified(await verifyTwoFactor(api, code));
    } catch (e) {
      // A wrong code answers 400/401 'Invalid verification code'; anything else failed to enable.
      setError(
        isApiError(e, 400) || isApiError(e, 401)
          ? SETTINGS_MESSAGES.invalidCode
          : failureText(e, SETTINGS_MESSAGES.enableFailed),
      );
      setCode('');
      focusCode();
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsForm className="totp-setup" onSubmit={submit} label="Set up two-step verification">
      <ol className="totp-setup__steps">
        <li>
          Scan this QR code with your authenticator app.
          <QrCode value={otpauthUrl} label="QR code for your authenticator app" />
        </li>
        {details ? (
          <li>
            Or enter this key by hand{details.account ? ` (account ${details.account})` : ''}:{' '}
            <code className="totp-secret" data-testid="totp-secret" aria-label="Setup key">
              {groupSecret(details.secret)}
            </code>
          </li>
        ) : null}
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <VerificationCodeField
        ref={codeRef}
        value={code}
        onCode={setCode}
        onBlur={() => setTouched(true)}
        error={touched && !code && !error ? SETTINGS_MESSAGES.codeRequired : null}
        disabled={busy}
        autoFocus
      />
      <ErrorBanner error={error} />
      <div className="settings-actions">
        <Button type="submit" loading={busy} loadingLabel="Verifying..." disabled={!isSixDigits(code)}>
          Verify and enable
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </SettingsForm>
  );
}
