import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Banner } from './banner';
import { Button } from './button';
import { Dialog } from './dialog';
import { PasswordInput } from './password-input';

const PASSWORD_REQUIRED = 'Please enter your password';

export interface PasswordPromptProps {
  open: boolean;
  title: string;
  description: ReactNode;
  /** The submit button's label (e.g. 'Download'). */
  actionText: string;
  /** While the password is checked: the form is disabled and Escape does not close. */
  loading?: boolean;
  /** An error from checking the password (e.g. 'Invalid password'), shown above the field. */
  error?: string | null;
  /** Called with a non-empty password; an empty one shows 'Please enter your password' instead. */
  onSubmit: (password: string) => void;
  onClose: () => void;
  /** The submit button's text while loading. */
  loadingLabel?: string;
  /** Empty the field as soon as the password is handed over (not only when the prompt closes). */
  clearOnSubmit?: boolean;
}

/**
 * The reusable password prompt (spec section 2, "Password prompt modal"; the File Vault's
 * downloads and the testing dashboard's file check): a Current Password
 * field under a title and description, an action button, and the error. It closes on Escape
 * (and Cancel, and the backdrop) except while loading. The password is handed to `onSubmit` and
 * cleared from the field as soon as the prompt closes.
 */
export function PasswordPrompt({
  open,
  title,
  description,
  actionText,
  loading = false,
  error,
  onSubmit,
  onClose,
  loadingLabel = 'Verifying...',
  clearOnSubmit = false,
}: PasswordPromptProps) {
  const [password, setPassword] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const formId = `password-prompt-${useId()}`;

  // A closed prompt keeps no password and no stale error for the next time it opens.
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (!open) {
      setPassword('');
      setLocalError(null);
    }
  }

  // After a failed attempt the field is ready for another try.
  useEffect(() => {
    if (open && !loading && error) inputRef.current?.select();
  }, [open, loading, error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    if (!password) {
      setLocalError(PASSWORD_REQUIRED);
      inputRef.current?.focus();
      return;
    }
    setLocalError(null);
    onSubmit(password);
    if (clearOnSubmit) setPassword('');
  };

  const shown = localError ?? error ?? null;
  return (
    <Dialog
      open={open}
      size="sm"
      title={title}
      description={description}
      initialFocusRef={inputRef}
      onClose={loading ? undefined : onClose}
      closeOnBackdrop={!loading}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={loading} loadingLabel={loadingLabel}>
            {actionText}
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {shown ? (
          <Banner tone="danger" role="alert">
            {shown}
          </Banner>
        ) : null}
        <PasswordInput
          ref={inputRef}
          label="Current Password"
          name="current-password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (localError) setLocalError(null);
          }}
          disabled={loading}
        />
      </form>
    </Dialog>
  );
}
