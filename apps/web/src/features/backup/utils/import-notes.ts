import type { NoteDto } from '@vault/contracts';
import { isApiError } from '../../../lib/api-client';
import { withRateLimitRetry } from '../../notes/api/rate-limit';
import type { NotePlain, SealedNoteFields } from '../../../workers/notes-messages';
import type { ImportCandidate } from './backup-format';

/** A lowercase UUID v4: the only ids the API takes (they are bound into every ciphertext). */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function asUuidV4(bytes: Uint8Array): string {
  const b = bytes.slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The id given to a note whose backup id is not a UUID v4 (e.g. an export of the original app,
 * which used database ids): a UUID v4-shaped value derived from the user and that id, so that
 * importing the same file twice still finds the notes already there and skips them.
 */
export async function derivedNoteId(userId: string, sourceId: string): Promise<string> {
  const data = new TextEncoder().encode(`vault:v1:import-id:${userId}:${sourceId}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return asUuidV4(digest);
}

export function randomNoteId(): string {
  return crypto.randomUUID();
}

export interface PlannedNote {
  id: string;
  plain: NotePlain;
}

export interface ImportPlan {
  create: PlannedNote[];
  /** Notes whose id already exists in the vault (or in its trash), or that appear twice in the file. */
  skipped: number;
}

/**
 * Spec section 5: notes whose id already exists are skipped. A backup id that is a UUID v4 is
 * kept (the note comes back under its own id); any other id is replaced by one derived from it;
 * a note without an id gets a fresh one.
 */
export async function planImport(
  candidates: readonly ImportCandidate[],
  existingIds: ReadonlySet<string>,
  userId: string,
): Promise<ImportPlan> {
  const taken = new Set(existingIds);
  const create: PlannedNote[] = [];
  let skipped = 0;
  for (const c of candidates) {
    let id: string;
    if (c.sourceId === null) id = randomNoteId();
    else if (isUuidV4(c.sourceId.toLowerCase())) id = c.sourceId.toLowerCase();
    else id = await derivedNoteId(userId, c.sourceId);
    if (taken.has(id)) {
      skipped++;
      continue;
    }
    taken.add(id);
    create.push({ id, plain: { title: c.title, content: c.content, tags: c.tags } });
  }
  return { create, skipped };
}

export interface ImportProgress {
  done: number;
  total: number;
}

export interface ImportRunOptions {
  /** Seals a note under a fresh note key (the notes worker). */
  encrypt: (id: string, plain: NotePlain) => Promise<SealedNoteFields>;
  /** POST /api/notes. */
  create: (sealed: SealedNoteFields) => Promise<NoteDto>;
  onProgress?: (progress: ImportProgress) => void;
  /** The server asked to slow down (429): the import waits this many seconds, then goes on. */
  onWait?: (seconds: number) => void;
  /** Called for every note as soon as it is saved (the vault list shows it at once). */
  onCreated?: (note: NoteDto, plain: NotePlain) => void;
  concurrency?: number;
  /** Tests: a clock that does not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ImportOutcome {
  created: number;
  failed: number;
  firstError: string | null;
}

async function createOne(note: PlannedNote, options: ImportRunOptions): Promise<NoteDto> {
  // Large imports meet the gateway's per-user request budget: wait as told (429), then go on.
  const create = (sealed: SealedNoteFields) =>
    withRateLimitRetry(() => options.create(sealed), {
      attempts: 20,
      ...(options.onWait ? { onWait: options.onWait } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
  const sealed = await options.encrypt(note.id, note.plain);
  try {
    return await create(sealed);
  } catch (error) {
    // The id is held elsewhere (e.g. this backup came from another account on this server):
    // the note is sealed again under a new id, since the id is bound into its ciphertext.
    if (isApiError(error, 409)) {
      return create(await options.encrypt(randomNoteId(), note.plain));
    }
    // A lost answer: the same request again is a no-op on the server if the first one landed.
    if (isApiError(error, 0)) return create(sealed);
    throw error;
  }
}

/**
 * Encrypts each note with new keys and creates it, a few at a time, reporting progress. One
 * failing note does not stop the others.
 */
export async function runImport(
  notes: readonly PlannedNote[],
  options: ImportRunOptions,
): Promise<ImportOutcome> {
  const total = notes.length;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  let next = 0;
  let done = 0;
  let created = 0;
  let failed = 0;
  let firstError: string | null = null;
  options.onProgress?.({ done, total });
  const worker = async () => {
    while (next < total) {
      const note = notes[next++]!;
      try {
        const saved = await createOne(note, options);
        created++;
        options.onCreated?.(saved, note.plain);
      } catch (error) {
        failed++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
      done++;
      options.onProgress?.({ done, total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return { created, failed, firstError };
}
