import { useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { copyText, downloadRecoveryKit } from '../utils/recovery-kit';
import './recovery-kit.css';

export const RECOVERY_KIT_TEXT = {
  skipWarning:
    'Without your recovery key, a forgotten password means your notes and files cannot be recovered by anyone, not even by us.',
  copied: 'Recovery key copied',
  copyFailed: 'Copy failed: select the key and copy it by hand',
} as const;

/**
 * The recovery kit, shown once right after sign-up: the key, Download (.txt kit) and Copy, then
 * 'I have saved it', or 'Skip' after a plain warning.
 */
export function RecoveryKitStep({
  email,
  recoveryKeyText,
  busy,
  onDone,
}: {
  email: string;
  recoveryKeyText: string;
  busy: boolean;
  onDone: () => void;
}) {
  const [status, setStatus] = useState<string | null>(null);
  const [confirmSkip, setConfirmSkip] = useState(false);

  return (
    <div className="form">
      <p className="auth__lead">
        Your vault is ready. This recovery key is the only way to get your notes and files back if you forget
        your password. It is shown only once: save it somewhere safe, away from this device.
      </p>
      <pre className="recovery-kit__key" aria-label="Recovery key" tabIndex={0}>
        {recoveryKeyText}
      </pre>
      {status ? (
        <p className="field__hint" role="status">
          {status}
        </p>
      ) : null}
      <div className="recovery-kit__actions">
        <Button
          variant="secondary"
          onClick={() => {
            downloadRecoveryKit({ email, recoveryKeyText, createdAt: new Date() });
            setStatus('Recovery kit downloaded');
          }}
          disabled={busy}
        >
          Download recovery kit
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            void copyText(recoveryKeyText).then((ok) =>
              setStatus(ok ? RECOVERY_KIT_TEXT.copied : RECOVERY_KIT_TEXT.copyFailed),
            )
          }
          disabled={busy}
        >
          Copy
        </Button>
      </div>
      {confirmSkip ? (
        <Banner tone="warning" title="Skip the recovery kit?">
          {RECOVERY_KIT_TEXT.skipWarning}
        </Banner>
      ) : null}
      <Button block size="lg" onClick={onDone} loading={busy} loadingLabel="Opening your vault...">
        I have saved it
      </Button>
      {confirmSkip ? (
        <div className="form__links">
          <button type="button" className="link-btn" onClick={onDone} disabled={busy}>
            Skip without saving
          </button>
          <button type="button" className="link-btn" onClick={() => setConfirmSkip(false)} disabled={busy}>
            Go back
          </button>
        </div>
      ) : (
        <div className="form__links">
          <button type="button" className="link-btn" onClick={() => setConfirmSkip(true)} disabled={busy}>
            Skip
          </button>
        </div>
      )}
    </div>
  );
}
