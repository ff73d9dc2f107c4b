import type { KdfParams } from '@vault/crypto';

/**
 * What crosses the notes worker's boundary (notes.worker.ts serves notesApi of notes-ops.ts). The
 * vault key travels with each call as a NON-extractable CryptoKey (structured clone keeps the
 * flag): the worker keeps no key between calls.
 */

/** A sealed note as the API returns it (only the fields decryption needs cross the boundary). */
export interface SealedNote {
  id: string;
  title: string;
  content: string;
  tags: string[];
  wrappedDEK: string;
  isEncrypted: boolean;
}

export interface NotePlain {
  title: string;
  content: string;
  tags: string[];
}

/** The sealed fields a create or update sends to the API. */
export interface SealedNoteFields {
  id: string;
  title: string;
  content: string;
  tags: string[];
  wrappedDEK: string;
}

export type DecryptOutcome =
  { id: string; ok: true; note: NotePlain } | { id: string; ok: false; error: string };

/** The password-encrypted backup file (features/notes/backup): a small JSON envelope around one sealed string. */
export interface EncryptedBackupEnvelope {
  format: 'vault-encrypted-backup';
  version: 1;
  kdfParams: KdfParams;
  salt: string;
  data: string;
}
