/** The upload dialog's texts (the dialog and its storage choice use them). */
export const UPLOAD_TEXT = {
  title: 'Upload Files',
  notice:
    'Names, types, tags and contents are encrypted on this device before anything is sent. The server ' +
    'and the storage only ever receive ciphertext.',
  storageFailed: 'Failed to load storage options',
  storageOff: 'Not configured on this server.',
  background: 'Uploads continue if you close this window.',
} as const;
