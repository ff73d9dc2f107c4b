import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../../components/button';
import { PasswordInput } from '../../../../components/password-input';
import { SettingsSection } from '../../../../components/settings-section';
import { readFileText } from '../../../../lib/read-file-text';
import { ImportError, useImportNotes } from '../state/use-backup';
import { BACKUP_MESSAGES } from '../utils/backup-format';
import type { ImportProgress } from '../utils/import-notes';
import { FeedbackBanner, type Feedback } from './feedback-banner';
import './backup.css';

/**
 * Settings → Data & Privacy → Import (spec section 5): a backup file, plain or encrypted (the
 * password is asked for), notes already in the vault skipped, the rest sealed with new keys here.
 */
export function ImportSection() {
  const importNotes = useImportNotes();
  const fileRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [needsPassword, setNeedsPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [stage, setStage] = useState<null | 'reading' | 'opening' | 'checking' | 'importing'>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const inputId = useId();

  const reset = () => {
    setFile(null);
    setNeedsPassword(false);
    setPassword('');
    setPasswordError(null);
    if (fileRef.current) fileRef.current.value = '';
  };

  const run = async (text: string, withPassword?: string) => {
    setFeedback(null);
    setProgress(null);
    try {
      const result = await importNotes({
        text,
        ...(withPassword !== undefined ? { password: withPassword } : {}),
        onProgress: (p) => {
          setProgress(p);
          setWaitUntil(null);
        },
        onStage: setStage,
        onWait: (seconds) => setWaitUntil(Date.now() + seconds * 1000),
      });
      if (result.kind === 'needs-password') {
        setNeedsPassword(true);
        requestAnimationFrame(() => passwordRef.current?.focus());
        return;
      }
      reset();
      if (result.kind === 'nothing') setFeedback({ tone: 'info', text: result.message });
      else if (result.kind === 'partial') setFeedback({ tone: 'warning', text: result.message });
      else {
        const skipped =
          result.skipped > 0
            ? ` ${result.skipped} ${result.skipped === 1 ? 'note was' : 'notes were'} already in your vault and skipped.`
            : '';
        setFeedback({ tone: 'success', text: `${result.message}${skipped}` });
      }
    } catch (error) {
      if (error instanceof ImportError && error.wrongPassword) {
        setPasswordError('Wrong password');
        setFeedback({ tone: 'danger', text: error.message });
        requestAnimationFrame(() => passwordRef.current?.select());
        return;
      }
      reset();
      setFeedback({
        tone: 'danger',
        text:
          error instanceof ImportError
            ? error.message
            : BACKUP_MESSAGES.importFailed(error instanceof Error ? error.message : String(error)),
      });
    } finally {
      setStage(null);
      setWaitUntil(null);
    }
  };

  const onFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setFeedback(null);
    setNeedsPassword(false);
    setPassword('');
    setPasswordError(null);
    setStage('reading');
    let text: string;
    try {
      text = await readFileText(chosen);
    } catch {
      setStage(null);
      setFeedback({ tone: 'danger', text: BACKUP_MESSAGES.importFailed('The file could not be read') });
      return;
    }
    setFile({ name: chosen.name, text });
    await run(text);
  };

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (!file || stage) return;
    if (!password) {
      setPasswordError('Enter the export password of this backup');
      passwordRef.current?.focus();
      return;
    }
    setPasswordError(null);
    void run(file.text, password);
  };

  const busy = stage !== null;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <SettingsSection
      title="Import notes"
      description="Restore notes from a Vault backup file (plain or encrypted). Notes that already exist in your vault are skipped; the others are encrypted again on this device with new keys."
    >
      <div className="backup-form">
        <div className="backup-file">
          <input
            ref={fileRef}
            id={inputId}
            type="file"
            accept="application/json,.json"
            className="visually-hidden backup-file__input"
            disabled={busy}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <label
            htmlFor={inputId}
            className={`btn btn--secondary btn--md${busy ? ' btn--disabled' : ''}`}
            aria-disabled={busy}
          >
            Choose backup file
          </label>
          <span className="backup-file__name">{file ? file.name : 'No file chosen'}</span>
        </div>

        {needsPassword && file ? (
          <form className="backup-form__passwords" onSubmit={submitPassword} noValidate>
            <p className="backup-form__note">
              This backup is encrypted. Enter the password it was exported with.
            </p>
            <PasswordInput
              ref={passwordRef}
              label="Backup password"
              autoComplete="off"
              value={password}
              error={passwordError}
              disabled={busy}
              onChange={(e) => {
                setPassword(e.target.value);
                if (passwordError) setPasswordError(null);
              }}
            />
            <div className="backup-form__actions">
              <Button variant="secondary" onClick={reset} disabled={busy}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={stage === 'opening'}
                loadingLabel="Decrypting backup..."
                disabled={busy}
              >
                Decrypt and import
              </Button>
            </div>
          </form>
        ) : null}

        {stage === 'checking' || stage === 'reading' ? (
          <p className="backup-form__note" role="status">
            {stage === 'reading'
              ? 'Reading the file...'
              : 'Checking which notes are already in your vault...'}
          </p>
        ) : null}

        {stage === 'importing' && progress ? (
          <div className="backup-progress" role="status" aria-live="polite">
            <progress max={progress.total} value={progress.done} aria-label="Import progress">
              {percent}%
            </progress>
            <span>
              Importing {progress.done} of {progress.total} notes...
              {waitUntil ? ' The server asked to slow down; the import goes on by itself in a moment.' : null}
            </span>
          </div>
        ) : null}

        <FeedbackBanner feedback={feedback} />
      </div>
    </SettingsSection>
  );
}
