import { createNoteBatchItemSchema, NOTE_DATE_MAX_SKEW_MS, NOTE_DATE_MIN } from '@vault/contracts';
import type { NoteFields } from '../../types';

/**
 * Spec section 3, "Export backup file": `{version: '1.0', notes, user: {email, id}, metadata:
 * {exported_at, total_notes, export_type: 'full_backup'}}`, produced on this device from the
 * decrypted notes. Optionally sealed under an export password (workers/notes-ops.ts sealBackup).
 */

export type BackupNote = NoteFields;

export interface BackupFile {
  version: '1.0';
  notes: BackupNote[];
  user: { email: string; id: string };
  metadata: { exported_at: string; total_notes: number; export_type: 'full_backup' };
}

export const BACKUP_MESSAGES = {
  invalidFormat: 'Invalid backup file format',
  allExist: 'All notes from the backup already exist in your vault.',
  imported: (n: number) => `Successfully imported ${n} ${n === 1 ? 'note' : 'notes'} from backup file.`,
  exportFailed: (reason: string) => `Failed to export data: ${reason}`,
  importFailed: (reason: string) => `Failed to import data: ${reason}`,
  wrongPassword: 'The password is wrong, or the file was changed after it was exported.',
} as const;

/** The envelope of a password-encrypted backup (sealed and opened in the notes worker). */
export const ENCRYPTED_BACKUP_FORMAT = 'vault-encrypted-backup';

export function isEncryptedBackup(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { format?: unknown }).format === ENCRYPTED_BACKUP_FORMAT
  );
}

export class BackupFormatError extends Error {
  constructor(message: string = BACKUP_MESSAGES.invalidFormat) {
    super(message);
    this.name = 'BackupFormatError';
  }
}

export function buildBackup(
  notes: readonly BackupNote[],
  user: { email: string; id: string },
  now: Date = new Date(),
): BackupFile {
  return {
    version: '1.0',
    notes: notes.map((n) => ({
      id: n.id,
      title: n.title,
      content: n.content,
      tags: [...n.tags],
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
    })),
    user: { email: user.email, id: user.id },
    metadata: { exported_at: now.toISOString(), total_notes: notes.length, export_type: 'full_backup' },
  };
}

/** The local calendar date, YYYY-MM-DD. */
export function localDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `vault-backup-YYYY-MM-DD.json`, or `vault-backup-YYYY-MM-DD.encrypted.json` when sealed. */
export function backupFileName(now: Date = new Date(), encrypted = false): string {
  return `vault-backup-${localDate(now)}${encrypted ? '.encrypted' : ''}.json`;
}

/** A note's dates as `POST /api/notes/batch` takes them (ISO, to the millisecond). */
export interface ImportDates {
  createdAt: string;
  updatedAt: string;
}

/** A note read from a backup file, cleaned up: strings only, tags trimmed, non-empty and unique. */
export interface ImportCandidate {
  /** The id in the file, if it had one (any string). */
  sourceId: string | null;
  title: string;
  content: string;
  tags: string[];
  /** The file's dates, when it has usable ones (importDates); else the server dates the note. */
  dates?: ImportDates;
}

const dateFields = createNoteBatchItemSchema.shape;

/** A date of the file the API would take (ISO 8601 with a zone, within its bounds by this clock), or null. */
function usableDate(value: unknown, field: 'createdAt' | 'updatedAt', now: number): Date | null {
  if (!dateFields[field].safeParse(value).success || typeof value !== 'string') return null;
  const at = new Date(value);
  return at.getTime() >= Date.parse(NOTE_DATE_MIN) && at.getTime() <= now + NOTE_DATE_MAX_SKEW_MS ? at : null;
}

/**
 * A note's dates from the file, as the API stores them (to the millisecond): both when both are
 * usable; one for both when only one is; none (the server dates the note) when neither is. A
 * createdAt after updatedAt becomes updatedAt. So a file from this app comes back exactly.
 */
export function importDates(
  createdAt: unknown,
  updatedAt: unknown,
  now: Date = new Date(),
): ImportDates | undefined {
  let created = usableDate(createdAt, 'createdAt', now.getTime());
  let updated = usableDate(updatedAt, 'updatedAt', now.getTime());
  if (!created && !updated) return undefined;
  created ??= updated!;
  updated ??= created;
  if (created > updated) created = updated;
  return { createdAt: created.toISOString(), updatedAt: updated.toISOString() };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function cleanTags(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const t of v) {
    if (typeof t !== 'string') continue;
    const tag = t.trim();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * Spec section 5: the file must be JSON with a notes array ('Invalid backup file format').
 * Entries that are not objects are ignored; missing fields become empty. The notes keep the
 * file's order and, where usable, its dates (importDates, by the clock `now`).
 */
export function parseBackup(value: unknown, now: Date = new Date()): ImportCandidate[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BackupFormatError();
  const notes = (value as { notes?: unknown }).notes;
  if (!Array.isArray(notes)) throw new BackupFormatError();
  const out: ImportCandidate[] = [];
  for (const entry of notes) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    const n = entry as Record<string, unknown>;
    const id = n['id'] ?? n['_id'];
    const dates = importDates(n['createdAt'], n['updatedAt'], now);
    out.push({
      sourceId: typeof id === 'string' && id.trim() ? id.trim() : null,
      title: str(n['title']).trim(),
      content: str(n['content']).trim(),
      tags: cleanTags(n['tags']),
      ...(dates ? { dates } : {}),
    });
  }
  return out;
}

/** Reads the file's text as JSON; anything else is 'Invalid backup file format'. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BackupFormatError();
  }
}
