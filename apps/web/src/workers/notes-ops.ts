import {
  DEFAULT_KDF_PARAMS,
  VaultCryptoError,
  bytesToHex,
  bytesToUtf8,
  decryptNote,
  derivePasswordKey,
  encryptNote,
  hkdf,
  newItemId,
  isHex,
  isSealed,
  open,
  randomBytes,
  seal,
  updateNote,
  utf8ToBytes,
  validateKdfParams,
  type KdfParams,
} from '@vault/crypto';
import type {
  DecryptOutcome,
  EncryptedBackupEnvelope,
  NotePlain,
  SealedNote,
  SealedNoteFields,
} from './notes-messages';

/**
 * The notes operations on @vault/crypto. They run inside notes.worker.ts in the browser and
 * in-thread where no Worker exists (tests, very old browsers): same code either way.
 */

/** AAD of the password-encrypted backup's one sealed value. */
export const BACKUP_AAD = 'vault:v1:export';
/** HKDF label that turns the export password's KDF output into the backup key (never used raw). */
export const BACKUP_KEY_INFO = 'vault:v1:export-key';
export const BACKUP_FORMAT = 'vault-encrypted-backup';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decrypts one batch. Every note is independent: a note that fails (wrong key, tampered
 * ciphertext, malformed fields) comes back as `{ok: false}` and the others are unaffected.
 * The answer keeps the order of the input.
 */
export async function decryptBatch(key: CryptoKey, notes: readonly SealedNote[]): Promise<DecryptOutcome[]> {
  return Promise.all(
    notes.map(async (note): Promise<DecryptOutcome> => {
      try {
        const plain = await decryptNote(key, note);
        return { id: note.id, ok: true, note: plain };
      } catch (error) {
        return { id: note.id, ok: false, error: describe(error) };
      }
    }),
  );
}

function fields(sealed: {
  id: string;
  title: string;
  content: string;
  tags: readonly string[];
  wrappedDEK: string;
}): SealedNoteFields {
  return {
    id: sealed.id,
    title: sealed.title,
    content: sealed.content,
    tags: [...sealed.tags],
    wrappedDEK: sealed.wrappedDEK,
  };
}

/** A new note under a fresh note key (protocol v1 "Notes"). */
export async function encryptNewNote(
  key: CryptoKey,
  noteId: string | undefined,
  plain: NotePlain,
): Promise<SealedNoteFields> {
  return fields(await encryptNote(key, noteId ?? newItemId(), plain));
}

/** An edit: every field re-sealed with fresh IVs under the note's existing key. */
export async function reencryptNote(
  key: CryptoKey,
  note: SealedNote,
  plain: NotePlain,
): Promise<SealedNoteFields> {
  return fields(await updateNote(key, note, plain));
}

async function backupKey(password: string, salt: string, params: KdfParams): Promise<Uint8Array> {
  const passwordKey = await derivePasswordKey(password, salt, params);
  try {
    return await hkdf(passwordKey, BACKUP_KEY_INFO);
  } finally {
    passwordKey.fill(0);
  }
}

/**
 * Seals a backup's JSON under a key derived from the export password: Argon2id (the account
 * defaults) with a fresh 16-byte salt, HKDF to a 32-byte key, then AES-256-GCM with the AAD
 * 'vault:v1:export'.
 */
export async function sealBackup(
  password: string,
  json: string,
  kdfParams: KdfParams = DEFAULT_KDF_PARAMS,
): Promise<EncryptedBackupEnvelope> {
  if (!password) throw new VaultCryptoError('BAD_INPUT', 'An export password is required');
  const params = validateKdfParams(kdfParams);
  const salt = bytesToHex(randomBytes(16));
  const key = await backupKey(password, salt, params);
  try {
    const data = await seal(key, utf8ToBytes(json), BACKUP_AAD);
    return { format: BACKUP_FORMAT, version: 1, kdfParams: params, salt, data };
  } finally {
    key.fill(0);
  }
}

export function isEncryptedBackup(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && (value as { format?: unknown }).format === BACKUP_FORMAT
  );
}

/**
 * Opens an encrypted backup. The envelope is checked before anything is derived (its KDF
 * parameters against the protocol's floors and ceilings, so a crafted file can neither weaken
 * nor freeze anything). A wrong password is DECRYPT_FAILED.
 */
export async function openBackup(password: string, envelope: unknown): Promise<string> {
  if (typeof envelope !== 'object' || envelope === null) {
    throw new VaultCryptoError('BAD_FORMAT', 'Not an encrypted Vault backup');
  }
  const e = envelope as Record<string, unknown>;
  if (e['format'] !== BACKUP_FORMAT || e['version'] !== 1) {
    throw new VaultCryptoError('BAD_FORMAT', 'Unsupported encrypted backup version');
  }
  const salt = e['salt'];
  if (typeof salt !== 'string' || !isHex(salt) || salt.length !== 32) {
    throw new VaultCryptoError('BAD_FORMAT', 'The encrypted backup has a malformed salt');
  }
  if (!isSealed(e['data']))
    throw new VaultCryptoError('BAD_FORMAT', 'The encrypted backup data is malformed');
  const params = validateKdfParams(e['kdfParams']);
  const key = await backupKey(password, salt, params);
  try {
    return bytesToUtf8(await open(key, e['data'], BACKUP_AAD));
  } finally {
    key.fill(0);
  }
}

/** What notes.worker.ts serves (worker-rpc.ts), and InlineNotesCrypto runs in-thread. */
export const notesApi = {
  decryptBatch,
  encrypt: encryptNewNote,
  update: reencryptNote,
  sealBackup,
  openBackup,
};

export type NotesApi = typeof notesApi;
