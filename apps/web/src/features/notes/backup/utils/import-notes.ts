import { NOTE_BATCH_MAX_BYTES, NOTE_BATCH_MAX_NOTES, sealedNoteBytes, type NoteDto } from '@vault/contracts';
import { isApiError } from '../../../../lib/api-client';
import type { NotePlain, SealedNoteFields } from '../../../../workers/notes-messages';
import { takenIds, type BatchNote } from '../../api/create-notes-batch';
import { withRateLimitRetry } from '../../api/rate-limit';
import type { ImportCandidate, ImportDates } from './backup-format';

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
  /** The backup's dates, sent with the note (the server keeps them); absent: the server dates it. */
  dates?: ImportDates;
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
    let alias: string | null = null;
    if (c.sourceId === null) id = randomNoteId();
    else if (isUuidV4(c.sourceId.toLowerCase())) {
      id = c.sourceId.toLowerCase();
      // Where another account holds this id, an earlier import saved the note under the id
      // derived from it (see runImport's `userId`): that copy counts as already there.
      alias = await derivedNoteId(userId, id);
    } else id = await derivedNoteId(userId, c.sourceId);
    if (taken.has(id) || (alias !== null && taken.has(alias))) {
      skipped++;
      continue;
    }
    taken.add(id);
    create.push({
      id,
      plain: { title: c.title, content: c.content, tags: c.tags },
      ...(c.dates ? { dates: c.dates } : {}),
    });
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
  /** POST /api/notes/batch: the saved notes, in the order sent. */
  createBatch: (notes: BatchNote[]) => Promise<NoteDto[]>;
  /** After every batch the server has answered (saved or failed). */
  onProgress?: (progress: ImportProgress) => void;
  /** The server asked to slow down (429): the import waits this many seconds, then goes on. */
  onWait?: (seconds: number) => void;
  /** Called for every note as soon as it is saved (the vault list shows it at once). */
  onCreated?: (note: NoteDto, plain: NotePlain) => void;
  /** Notes per request, at most NOTE_BATCH_MAX_NOTES (the default). */
  batchSize?: number;
  /** Sealed bytes per request, at most NOTE_BATCH_MAX_BYTES (the default). */
  batchBytes?: number;
  /**
   * Batches sealed at once, ahead of the one being sent (2 by default). Requests go one at a
   * time, in the plan's order: the server lists notes of the same date in the order it stored
   * them, so this keeps the file's order.
   */
  concurrency?: number;
  /** Tests: a clock that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The importing user. A note whose id another account holds (409) is saved under the id
   * derived from the user and that id, so importing the same backup again finds it and skips
   * it (planImport); without a user, or when the derived id is taken too, a random id.
   */
  userId?: string;
}

export interface ImportOutcome {
  created: number;
  failed: number;
  firstError: string | null;
}

interface Sealed {
  plain: NotePlain;
  sealed: SealedNoteFields;
  dates?: ImportDates;
}

/** What goes in the request for one note: its sealed fields, and its dates when it has them. */
const batchNote = (n: Sealed): BatchNote => (n.dates ? { ...n.sealed, ...n.dates } : n.sealed);

/** Times the same batch is sent again after a 409 named ids taken (each time under new ids). */
const CONFLICT_RETRIES = 3;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Splits sealed notes, in order, into batches of at most `size` notes and `bytes` sealed bytes. */
export function splitIntoBatches<T extends { sealed: SealedNoteFields }>(
  notes: readonly T[],
  size: number,
  bytes: number,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let currentBytes = 0;
  for (const note of notes) {
    const noteBytes = sealedNoteBytes(note.sealed);
    if (current.length > 0 && (current.length >= size || currentBytes + noteBytes > bytes)) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(note);
    currentBytes += noteBytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Encrypts the notes with new keys, a batch at a time, and creates each batch with one
 * POST /api/notes/batch (at most NOTE_BATCH_MAX_NOTES notes and NOTE_BATCH_MAX_BYTES), reporting
 * progress after every batch. Each note takes its backup's dates along. The batches are sent one
 * after another in the plan's (the file's) order while the next ones are sealed, so the vault
 * lists the notes as the file has them, equal dates included. A batch is all or nothing on the
 * server, so:
 *
 * - 429: the same batch again after the wait the server names (withRateLimitRetry);
 * - 409: the taken ids (e.g. this backup came from another account on this server) are sealed
 *   again under new ids (derived from the user and the taken id first, see `userId`), since the
 *   id is bound into the ciphertext, and the batch is sent again;
 * - a lost answer: the same batch again, a no-op on the server for the notes that landed;
 * - any other refusal of the request itself (400, 413): its notes are sent one per batch, so
 *   that one failing note does not stop the others.
 */
export async function runImport(
  notes: readonly PlannedNote[],
  options: ImportRunOptions,
): Promise<ImportOutcome> {
  const total = notes.length;
  const size = Math.max(1, Math.min(options.batchSize ?? NOTE_BATCH_MAX_NOTES, NOTE_BATCH_MAX_NOTES));
  const bytes = Math.max(1, Math.min(options.batchBytes ?? NOTE_BATCH_MAX_BYTES, NOTE_BATCH_MAX_BYTES));
  const concurrency = Math.max(1, options.concurrency ?? 2);
  let done = 0;
  let created = 0;
  let failed = 0;
  let firstError: string | null = null;
  const fail = (count: number, error: unknown) => {
    failed += count;
    firstError ??= errorText(error);
  };
  const progress = (count: number) => {
    done += count;
    options.onProgress?.({ done, total });
  };

  // Large imports meet the gateway's per-user request budget: wait as told (429), then go on.
  const send = (batch: readonly Sealed[]) =>
    withRateLimitRetry(() => options.createBatch(batch.map(batchNote)), {
      attempts: 20,
      ...(options.onWait ? { onWait: options.onWait } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });

  /** Sends one batch until it is saved; throws what stopped it. */
  const save = async (batch: Sealed[]): Promise<void> => {
    let lostAnswer = false;
    for (let conflicts = 0; ;) {
      try {
        const saved = await send(batch);
        saved.forEach((note, i) => options.onCreated?.(note, batch[i]!.plain));
        created += saved.length;
        return;
      } catch (error) {
        const taken = isApiError(error, 409) ? new Set(takenIds(error)) : new Set<string>();
        if (taken.size > 0 && conflicts < CONFLICT_RETRIES) {
          const derive = conflicts === 0 && options.userId !== undefined ? options.userId : null;
          conflicts++;
          batch = await Promise.all(
            batch.map(async (n) =>
              taken.has(n.sealed.id)
                ? {
                    ...n,
                    sealed: await options.encrypt(
                      derive !== null ? await derivedNoteId(derive, n.sealed.id) : randomNoteId(),
                      n.plain,
                    ),
                  }
                : n,
            ),
          );
          continue;
        }
        if (isApiError(error, 0) && !lostAnswer) {
          lostAnswer = true;
          continue;
        }
        throw error;
      }
    }
  };

  const saveOrSplit = async (batch: Sealed[]): Promise<void> => {
    try {
      await save(batch);
    } catch (error) {
      // Refusals of what the batch holds; anything else (auth, rate limit, server) would meet every note alike.
      const refused = isApiError(error) && [400, 409, 413].includes(error.status);
      if (!refused || batch.length === 1) {
        fail(batch.length, error);
        return;
      }
      for (const note of batch) {
        try {
          await save([note]);
        } catch (single) {
          fail(1, single);
        }
      }
    }
  };

  /** Seals one chunk of the plan; a note that cannot be sealed counts as failed (and done). */
  const seal = async (chunk: readonly PlannedNote[]): Promise<Sealed[]> => {
    const sealed: Sealed[] = [];
    let encryptFailures = 0;
    await Promise.all(
      chunk.map(async (note, i) => {
        try {
          const fields = await options.encrypt(note.id, note.plain);
          sealed[i] = { plain: note.plain, sealed: fields, ...(note.dates ? { dates: note.dates } : {}) };
        } catch (error) {
          encryptFailures++;
          fail(1, error);
        }
      }),
    );
    if (encryptFailures > 0) progress(encryptFailures);
    return sealed.filter(Boolean);
  };

  options.onProgress?.({ done, total });
  const chunks: PlannedNote[][] = [];
  for (let i = 0; i < total; i += size) chunks.push(notes.slice(i, i + size));
  // Up to `concurrency` chunks are sealed ahead; they are sent strictly one after another.
  const sealing: Array<Promise<Sealed[]>> = [];
  for (let k = 0; k < chunks.length; k++) {
    for (let ahead = sealing.length; ahead < Math.min(chunks.length, k + concurrency); ahead++) {
      sealing.push(seal(chunks[ahead]!));
    }
    for (const batch of splitIntoBatches(await sealing[k]!, size, bytes)) {
      await saveOrSplit(batch);
      progress(batch.length);
    }
  }
  return { created, failed, firstError };
}
