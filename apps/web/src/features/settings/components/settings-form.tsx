import type { FormEvent, ReactNode, Ref } from 'react';
import { Button } from '../../../components/button';
import { TextField, type TextFieldProps } from '../../../components/input';
import { Spinner } from '../../../components/spinner';
import { digitsOnly } from '../utils/settings-validation';

/** A settings form: the section validates it (noValidate) and submits it without a page load. */
export function SettingsForm({
  label,
  onSubmit,
  className,
  children,
}: {
  label?: string;
  onSubmit: (event: FormEvent) => Promise<void>;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      className={className ? `settings-form ${className}` : 'settings-form'}
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={label}
    >
      {children}
    </form>
  );
}

/** What the device is working on (a key derivation can take seconds), announced politely. */
export function SettingsProgress({ children }: { children: ReactNode }) {
  return (
    <p className="settings-progress" role="status">
      <Spinner size="sm" /> {children}
    </p>
  );
}

/** A dialog form's Cancel and submit buttons, at the end of the row; both wait while busy. */
export function DialogFormActions({
  busy,
  onCancel,
  submitLabel,
  busyLabel,
  danger = false,
  disabled,
}: {
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
  busyLabel: string;
  danger?: boolean;
  disabled?: boolean;
}) {
  return (
    <div className="settings-actions settings-actions--end">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button
        type="submit"
        variant={danger ? 'danger' : 'primary'}
        disabled={disabled}
        loading={busy}
        loadingLabel={busyLabel}
      >
        {submitLabel}
      </Button>
    </div>
  );
}

/** The 6-digit code from the authenticator app (digits only) that proves a 2FA change. */
export function VerificationCodeField({
  onCode,
  ...rest
}: Omit<TextFieldProps, 'label' | 'onChange'> & {
  onCode: (code: string) => void;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <TextField
      label="Verification code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      onChange={(e) => onCode(digitsOnly(e.target.value))}
      {...rest}
    />
  );
}
