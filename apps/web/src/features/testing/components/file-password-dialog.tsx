import { PasswordPrompt } from '../../../components/password-prompt';
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
  return (
    <PasswordPrompt
      open={open}
      title={FILE_PASSWORD_TEXT.title}
      description={FILE_PASSWORD_TEXT.description}
      actionText={FILE_PASSWORD_TEXT.action}
      loading={loading}
      loadingLabel="Deriving the key..."
      error={error}
      // The password goes to the KDF and is not kept here while the key is derived.
      clearOnSubmit
      onSubmit={onSubmit}
      onClose={onCancel}
    />
  );
}
