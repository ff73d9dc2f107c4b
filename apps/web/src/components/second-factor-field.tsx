import { BACKUP_CODE_MAX_LENGTH, CODE_LENGTH, sanitizeBackupCode, sanitizeCode } from '../lib/two-factor';
import { TextField } from './input';

interface SecondFactorFieldProps {
  useBackup: boolean;
  code: string;
  backupCode: string;
  onCode: (code: string) => void;
  onBackupCode: (code: string) => void;
  disabled: boolean;
  /** The code input's form name (the sign-in form and the reset form name it differently). */
  codeName?: string;
}

/**
 * The second factor typed at sign-in and at a password reset: a 6-digit authenticator code (only
 * digits kept) or a backup code (uppercased, A-F 0-9 and hyphen, max 9), one or the other.
 */
export function SecondFactorField({
  useBackup,
  code,
  backupCode,
  onCode,
  onBackupCode,
  disabled,
  codeName = 'code',
}: SecondFactorFieldProps) {
  // Either field takes the focus as it appears (the key makes the switch a new input).
  const common = { autoComplete: 'one-time-code', disabled, autoFocus: true, className: 'field--code' };
  return useBackup ? (
    <TextField
      key="backup"
      label="Backup code"
      name="backupCode"
      autoCapitalize="characters"
      spellCheck={false}
      placeholder="XXXX-XXXX"
      maxLength={BACKUP_CODE_MAX_LENGTH}
      value={backupCode}
      onChange={(e) => onBackupCode(sanitizeBackupCode(e.target.value))}
      {...common}
    />
  ) : (
    <TextField
      key="code"
      label="Verification code"
      name={codeName}
      inputMode="numeric"
      placeholder="123456"
      maxLength={CODE_LENGTH}
      value={code}
      onChange={(e) => onCode(sanitizeCode(e.target.value))}
      {...common}
    />
  );
}

/** Switches between the authenticator code and a backup code, clearing the shown error. */
export function SecondFactorToggle({
  useBackup,
  onToggle,
  disabled,
}: {
  useBackup: boolean;
  onToggle: () => void;
  disabled: boolean;
}) {
  return (
    <button type="button" className="link-btn" onClick={onToggle} disabled={disabled}>
      {useBackup ? 'Use your authenticator app instead' : 'Use a backup code instead'}
    </button>
  );
}
