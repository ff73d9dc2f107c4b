import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../../components/button';
import { PasswordInput } from '../../../../components/password-input';
import { SettingsSection } from '../../../../components/settings-section';
import { downloadText, useExportNotes } from '../state/use-backup';
import { BACKUP_MESSAGES } from '../utils/backup-format';
import { FeedbackBanner, type Feedback } from './feedback-banner';
import './backup.css';

/** The shortest export password accepted (it guards the file offline, against unlimited guessing). */
export const EXPORT_PASSWORD_MIN = 10;

type ExportMode = 'plain' | 'encrypted';

/**
 * Settings → Data & Privacy → Export (spec section 2, 3): the backup file of every note, made on
 * this device. Plain JSON in the spec's format, or that same JSON sealed under an export password.
 */
export function ExportSection({ onDownload = downloadText }: { onDownload?: typeof downloadText }) {
  const exportNotes = useExportNotes();
  const [mode, setMode] = useState<'plain' | 'encrypted'>('plain');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<{ password?: string; confirm?: string }>({});
  const [stage, setStage] = useState<null | 'decrypting' | 'sealing'>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (stage) return;
    setFeedback(null);
    if (mode === 'encrypted') {
      const errors: { password?: string; confirm?: string } = {};
      if (password.length < EXPORT_PASSWORD_MIN) {
        errors.password = `Use at least ${EXPORT_PASSWORD_MIN} characters`;
      } else if (password !== confirm) {
        errors.confirm = 'Passwords do not match';
      }
      setFieldError(errors);
      if (errors.password || errors.confirm) {
        passwordRef.current?.focus();
        return;
      }
    }
    try {
      const result = await exportNotes({
        ...(mode === 'encrypted' ? { password } : {}),
        onStage: setStage,
      });
      onDownload(result.fileName, result.body);
      setPassword('');
      setConfirm('');
      const skipped =
        result.skipped > 0
          ? ` ${result.skipped} ${result.skipped === 1 ? 'note' : 'notes'} could not be decrypted and ${result.skipped === 1 ? 'is' : 'are'} not included.`
          : '';
      setFeedback({
        tone: result.skipped > 0 ? 'warning' : 'success',
        text: `Exported ${result.total} ${result.total === 1 ? 'note' : 'notes'} to ${result.fileName}.${skipped}`,
      });
    } catch (error) {
      setFeedback({
        tone: 'danger',
        text: BACKUP_MESSAGES.exportFailed(error instanceof Error ? error.message : String(error)),
      });
    } finally {
      setStage(null);
    }
  };

  return (
    <SettingsSection
      title="Export notes"
      description="Download a backup file of your notes. It is made on this device from your decrypted notes; nothing is sent anywhere."
    >
      <form className="backup-form" onSubmit={(e) => void submit(e)} noValidate>
        <ExportFormatChoice mode={mode} onChange={setMode} />

        {mode === 'encrypted' ? (
          <div className="backup-form__passwords">
            <PasswordInput
              ref={passwordRef}
              label="Export password"
              autoComplete="new-password"
              value={password}
              error={fieldError.password ?? null}
              hint={`At least ${EXPORT_PASSWORD_MIN} characters. It cannot be recovered: write it down.`}
              onChange={(e) => setPassword(e.target.value)}
            />
            <PasswordInput
              label="Confirm export password"
              autoComplete="new-password"
              value={confirm}
              error={fieldError.confirm ?? null}
              onChange={(e) => setConfirm(e.target.value)}
            />
          </div>
        ) : null}

        <FeedbackBanner feedback={feedback} />

        <div className="backup-form__actions">
          <Button
            type="submit"
            loading={stage !== null}
            loadingLabel={stage === 'sealing' ? 'Encrypting backup...' : 'Preparing backup...'}
          >
            Export Notes
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}

/** The export's format: plain JSON or sealed under an export password, each with what it means. */
function ExportFormatChoice({ mode, onChange }: { mode: ExportMode; onChange: (mode: ExportMode) => void }) {
  const name = useId();
  const option = (value: ExportMode, title: string, text: string) => (
    <label className="backup-choice__option">
      <input
        type="radio"
        name={name}
        value={value}
        checked={mode === value}
        onChange={() => onChange(value)}
      />
      <span>
        <span className="backup-choice__title">{title}</span>
        <span className="backup-choice__text">{text}</span>
      </span>
    </label>
  );
  return (
    <fieldset className="backup-choice">
      <legend className="field__label">Format</legend>
      {option(
        'plain',
        'Plain JSON',
        'Readable by anyone who gets the file. Keep it somewhere safe, or choose the encrypted format.',
      )}
      {option(
        'encrypted',
        'Encrypted with an export password',
        'The same backup sealed with AES-256-GCM under a key derived from a password you choose ' +
          '(Argon2id). Without that password the file cannot be read, not even by Vault.',
      )}
    </fieldset>
  );
}
