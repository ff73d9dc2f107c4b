import { useId, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { PasswordInput } from '../../../components/password-input';
import type { FilePasswordDialogState } from '../model/use-file-password';

export const FILE_PASSWORD_TEXT = {
  title: 'Password for the file check',
  description:
    'The End to end suite downloads the stored bytes of its temporary file, and downloads ask for your password. It is turned into a key on this device and forgotten after the check. Cancel skips the download part.',
  action: 'Check the download',
  required: 'Please enter your password',
} as const;

/**
 * Asks for the account password while the file check waits (the File Vault's password prompt, for
 * this page). The field is emptied whenever the dialog closes; Escape and Cancel skip the download.
 */
export function FilePasswordDialog({ open, loading, error, onSubmit, onCancel }: FilePasswordDialogState) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const formId = `file-password-${useId()}`;

  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (!open) {
      setPassword('');
      setMissing(false);
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    if (!password) {
      setMissing(true);
      inputRef.current?.focus();
      return;
    }
    onSubmit(password);
    // The password goes to the KDF and is not kept here while the key is derived.
    setPassword('');
  };

  const shown = missing ? FILE_PASSWORD_TEXT.required : error;
  return (
    <Dialog
      open={open}
      size="sm"
      title={FILE_PASSWORD_TEXT.title}
      description={FILE_PASSWORD_TEXT.description}
      initialFocusRef={inputRef}
      onClose={loading ? undefined : onCancel}
      closeOnBackdrop={!loading}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={loading}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={loading} loadingLabel="Deriving the key...">
            {FILE_PASSWORD_TEXT.action}
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
            setMissing(false);
          }}
          disabled={loading}
        />
      </form>
    </Dialog>
  );
}
