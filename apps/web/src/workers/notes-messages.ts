import type { KdfParams } from '@vault/crypto';

/**
 * The notes worker's protocol (notes.worker.ts). One request per message, answered once and
 * matched by `id`. The vault key travels with each request as a NON-extractable CryptoKey
 * (structured clone keeps the flag): the worker keeps no key between requests.
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

export type NotesWorkerRequest =
  | { id: number; op: 'decrypt'; key: CryptoKey; notes: SealedNote[] }
  /** `noteId` absent: the worker makes a fresh UUID v4 (returned in the answer's `id`). */
  | { id: number; op: 'encrypt'; key: CryptoKey; noteId?: string; plain: NotePlain }
  | { id: number; op: 'update'; key: CryptoKey; note: SealedNote; plain: NotePlain }
  | { id: number; op: 'sealBackup'; password: string; json: string; kdfParams?: KdfParams }
  | { id: number; op: 'openBackup'; password: string; envelope: unknown };

export type NotesWorkerResult = DecryptOutcome[] | SealedNoteFields | EncryptedBackupEnvelope | string;

export type NotesWorkerResponse =
  | { id: number; ok: true; result: NotesWorkerResult }
  | { id: number; ok: false; error: { code: string; message: string } };
