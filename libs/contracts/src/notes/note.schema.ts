import { z } from 'zod';
import { sealed, sealedKey, uuidV4 } from '../common/formats';
import { plainText, strictBody } from '../common/validation';
import { RawJson } from '../common/raw-json';

/** A sealed note over 1 MiB in total answers 413 (docs/api.md "Conventions"). */
export const NOTE_MAX_BYTES = 1024 * 1024;

const noteFields = {
  title: sealed('Invalid encrypted title'),
  content: sealed('Invalid encrypted content'),
  tags: z.array(sealed('Invalid encrypted tags')).max(1, 'Invalid encrypted tags'),
  wrappedDEK: sealedKey('Invalid wrapped note key'),
};

export const createNoteBodySchema = strictBody({ id: uuidV4, ...noteFields });
export type CreateNoteBody = z.output<typeof createNoteBodySchema>;

/**
 * `POST /api/notes/batch` (an addition to the contract: bulk create, for imports). At most
 * NOTE_BATCH_MAX_NOTES notes, each as `POST /api/notes` takes it, with distinct ids, and each
 * optionally with the `createdAt` and `updatedAt` of the backup it comes from (both or neither).
 */
export const NOTE_BATCH_MAX_NOTES = 100;

/**
 * Sealed bytes of all the notes of one batch together (sealedNoteBytes summed). One batch is
 * one RPC message each way, so it is held to what one note may be: a full batch then fits the
 * gateway's body limit and the transport's message limit (NATS max_payload, at least 2 MiB)
 * exactly as a 1 MiB note does. Clients split larger imports into more batches.
 */
export const NOTE_BATCH_MAX_BYTES = NOTE_MAX_BYTES;

/** The earliest date an imported note may carry. */
export const NOTE_DATE_MIN = '2000-01-01T00:00:00.000Z';

/** How far ahead of the server's clock an imported date may be: the clock skew between devices. */
export const NOTE_DATE_MAX_SKEW_MS = 5 * 60 * 1000;

const DATE_EXAMPLE = '2024-05-01T12:00:00.000Z';

/**
 * A date of an imported note: ISO 8601 with a time and a zone (`Z` or an offset). The server
 * keeps it to the millisecond, and answers it as `toISOString()` spells it.
 */
const importedDate = (field: 'createdAt' | 'updatedAt') =>
  z.iso
    .datetime({
      offset: true,
      error: `${field} must be an ISO 8601 date and time, e.g. ${DATE_EXAMPLE}`,
    })
    .optional()
    .meta({
      description:
        `The note's ${field} from the backup (imports). Kept to the millisecond; from ${NOTE_DATE_MIN} ` +
        `to ${NOTE_DATE_MAX_SKEW_MS / 60_000} minutes ahead of the server's clock; given together with ` +
        `${field === 'createdAt' ? 'updatedAt' : 'createdAt'}, and createdAt <= updatedAt. Without them ` +
        'the note is dated at the time of the request',
    });

export const createNoteBatchItemSchema = strictBody({
  id: uuidV4,
  ...noteFields,
  createdAt: importedDate('createdAt'),
  updatedAt: importedDate('updatedAt'),
});
export type CreateNoteBatchItem = z.output<typeof createNoteBatchItemSchema>;

/**
 * The dates of one note of a batch checked against the bounds, `now` being the server's clock:
 * the message of the first rule broken, or null. Both dates or neither; each from NOTE_DATE_MIN
 * to NOTE_DATE_MAX_SKEW_MS past `now`; createdAt not after updatedAt.
 */
export function importedDatesProblem(
  note: { id: string; createdAt?: string | undefined; updatedAt?: string | undefined },
  now: number = Date.now(),
): string | null {
  const { id, createdAt, updatedAt } = note;
  if (createdAt === undefined && updatedAt === undefined) return null;
  if (createdAt === undefined || updatedAt === undefined) return NOTE_MESSAGES.datesTogether(id);
  const min = Date.parse(NOTE_DATE_MIN);
  const max = now + NOTE_DATE_MAX_SKEW_MS;
  // NaN (a date the schema refused, whose own message comes first) breaks no rule here.
  const created = Date.parse(createdAt);
  const updated = Date.parse(updatedAt);
  for (const [field, at] of [
    ['createdAt', created],
    ['updatedAt', updated],
  ] as const) {
    if (at < min) return NOTE_MESSAGES.dateTooEarly(id, field);
    if (at > max) return NOTE_MESSAGES.dateInFuture(id, field);
  }
  if (created > updated) return NOTE_MESSAGES.createdAfterUpdated(id);
  return null;
}

export const createNoteBatchBodySchema = strictBody({
  notes: z
    .array(createNoteBatchItemSchema, {
      error: `notes must be a list of 1 to ${NOTE_BATCH_MAX_NOTES} notes`,
    })
    .min(1, `A batch holds 1 to ${NOTE_BATCH_MAX_NOTES} notes`)
    .max(NOTE_BATCH_MAX_NOTES, `A batch holds 1 to ${NOTE_BATCH_MAX_NOTES} notes`)
    .superRefine((notes, ctx) => {
      const seen = new Set<string>();
      const now = Date.now();
      notes.forEach((note, index) => {
        if (seen.has(note.id)) {
          ctx.addIssue({
            code: 'custom',
            message: `Duplicate note id in batch: ${note.id}`,
            path: [index, 'id'],
          });
        }
        seen.add(note.id);
        // Zod runs this even when a note failed its own schema; that note's issue comes first.
        const problem = importedDatesProblem(note, now);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [index] });
      });
    }),
});
export type CreateNoteBatchBody = z.output<typeof createNoteBatchBodySchema>;

export const updateNoteBodySchema = strictBody(noteFields);
export type UpdateNoteBody = z.output<typeof updateNoteBodySchema>;

/** The `notes.update` RPC body: the route's id beside the re-sealed fields. */
export const updateNoteRequestSchema = strictBody({ id: uuidV4, ...noteFields });
export type UpdateNoteRequest = z.output<typeof updateNoteRequestSchema>;

export const noteIdParamSchema = z.strictObject({ id: uuidV4 });
export type NoteIdParam = z.output<typeof noteIdParamSchema>;

/**
 * `PUT /api/notes/{id}/key` (an addition to the contract): the note's key re-wrapped under the
 * current vault key (`seal(vaultKey, dek, "vault:v1:note-key:" + id)`), after an access reset
 * left it under a legacy one. Active and trashed notes alike; nothing else of the note changes.
 */
export const rewrapNoteKeyBodySchema = strictBody({ wrappedDEK: noteFields.wrappedDEK });
export type RewrapNoteKeyBody = z.output<typeof rewrapNoteKeyBodySchema>;

/** The `notes.rewrap-key` RPC body: the route's id beside the re-wrapped key. */
export const rewrapNoteKeyRequestSchema = strictBody({ id: uuidV4, wrappedDEK: noteFields.wrappedDEK });
export type RewrapNoteKeyRequest = z.output<typeof rewrapNoteKeyRequestSchema>;

export const listNotesQuerySchema = strictBody({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: plainText('Invalid cursor').max(200, 'Invalid cursor').optional(),
});
export type ListNotesQuery = z.output<typeof listNotesQuerySchema>;

export const noteDtoSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  wrappedDEK: z.string(),
  isEncrypted: z.boolean(),
  isDeleted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type NoteDto = z.infer<typeof noteDtoSchema>;

export const noteListResponseSchema = z.object({
  notes: z.array(noteDtoSchema),
  nextCursor: z.string().nullable(),
});
export type NoteListResponse = z.infer<typeof noteListResponseSchema>;

/**
 * `notes.list`'s RPC reply: one page, its notes as their JSON text (RawJson) so that the gateway
 * can pass them on unparsed; a serialiser that does not know RawJson writes them as objects, and a
 * reader then finds the array (both are accepted). Over HTTP it is always a NoteListResponse.
 */
export const noteListPageSchema = noteListResponseSchema.extend({
  notes: z.union([
    noteListResponseSchema.shape.notes,
    z.custom<RawJson<NoteDto[]>>((value) => value instanceof RawJson, 'Expected the notes as RawJson'),
  ]),
});
export type NoteListPage = z.infer<typeof noteListPageSchema>;

export const noteResponseSchema = z.object({ note: noteDtoSchema });
export type NoteResponse = z.infer<typeof noteResponseSchema>;

/** `POST /api/notes/batch`: every note of the batch, in the order of the request. */
export const createNoteBatchResponseSchema = z.object({ notes: z.array(noteDtoSchema) });
export type CreateNoteBatchResponse = z.infer<typeof createNoteBatchResponseSchema>;

/** `GET /api/notes/deleted`: the trash, newest `deletedAt` first. */
export const deletedNoteListResponseSchema = z.object({ notes: z.array(noteDtoSchema) });
export type DeletedNoteListResponse = z.infer<typeof deletedNoteListResponseSchema>;

/** `DELETE /api/notes/trash` (an addition to the contract: the spec's "Empty Trash"). */
export const emptyTrashResponseSchema = z.object({ deleted: z.number().int().min(0) });
export type EmptyTrashResponse = z.infer<typeof emptyTrashResponseSchema>;

/** `GET /api/notes/counts` (an addition: the sidebar's "All Notes (n)" and "Trash (n)"). */
export const noteCountsResponseSchema = z.object({
  active: z.number().int().min(0),
  deleted: z.number().int().min(0),
});
export type NoteCountsResponse = z.infer<typeof noteCountsResponseSchema>;

/** Messages of the notes service's errors (the codes are NOT_FOUND, CONFLICT, PAYLOAD_TOO_LARGE, VALIDATION_FAILED). */
export const NOTE_MESSAGES = {
  notFound: 'Note not found',
  idTaken: 'A different note with this id already exists',
  tooLarge: 'Note is too large: at most 1 MiB encrypted',
  batchTooLarge: 'Batch is too large: at most 1 MiB encrypted in one request; send fewer notes per batch',
  invalidCursor: 'Invalid cursor',
  datesTogether: (id: string) => `Note ${id}: createdAt and updatedAt must be given together`,
  dateTooEarly: (id: string, field: 'createdAt' | 'updatedAt') =>
    `Note ${id}: ${field} must not be before ${NOTE_DATE_MIN.slice(0, 10)}`,
  dateInFuture: (id: string, field: 'createdAt' | 'updatedAt') =>
    `Note ${id}: ${field} must not be in the future`,
  createdAfterUpdated: (id: string) => `Note ${id}: createdAt must not be after updatedAt`,
} as const;

/**
 * The `extra` of a batch's 409: the ids of the batch that are taken (a different note, or
 * another user's), so that a client can re-seal exactly those under new ids and send again.
 */
export interface NoteBatchConflictExtra {
  ids: string[];
}

/** Total size of a sealed note's fields, compared with NOTE_MAX_BYTES. */
export function sealedNoteBytes(note: {
  title: string;
  content: string;
  tags: string[];
  wrappedDEK: string;
}): number {
  return (
    note.title.length +
    note.content.length +
    note.wrappedDEK.length +
    note.tags.reduce((n, t) => n + t.length, 0)
  );
}

/** Sealed bytes of a batch: its notes' sealedNoteBytes added up, compared with NOTE_BATCH_MAX_BYTES. */
export function sealedBatchBytes(notes: readonly Parameters<typeof sealedNoteBytes>[0][]): number {
  return notes.reduce((n, note) => n + sealedNoteBytes(note), 0);
}
