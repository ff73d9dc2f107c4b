import { z } from 'zod';
import { sealed, sealedKey, uuidV4 } from '../common/formats';
import { strictBody } from '../common/validation';

/** A sealed note over 1 MiB in total answers 413 (api-contract.md "Notes service"). */
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
 * NOTE_BATCH_MAX_NOTES notes, each exactly as `POST /api/notes` takes it, with distinct ids.
 */
export const NOTE_BATCH_MAX_NOTES = 100;

/**
 * Sealed bytes of all the notes of one batch together (sealedNoteBytes summed). One batch is
 * one RPC message each way, so it is held to what one note may be: a full batch then fits the
 * gateway's body limit and the transport's message limit (NATS max_payload, at least 2 MiB)
 * exactly as a 1 MiB note does. Clients split larger imports into more batches.
 */
export const NOTE_BATCH_MAX_BYTES = NOTE_MAX_BYTES;

export const createNoteBatchBodySchema = strictBody({
  notes: z
    .array(createNoteBodySchema, { error: `notes must be a list of 1 to ${NOTE_BATCH_MAX_NOTES} notes` })
    .min(1, `A batch holds 1 to ${NOTE_BATCH_MAX_NOTES} notes`)
    .max(NOTE_BATCH_MAX_NOTES, `A batch holds 1 to ${NOTE_BATCH_MAX_NOTES} notes`)
    .superRefine((notes, ctx) => {
      const seen = new Set<string>();
      notes.forEach((note, index) => {
        if (seen.has(note.id)) {
          ctx.addIssue({
            code: 'custom',
            message: `Duplicate note id in batch: ${note.id}`,
            path: [index, 'id'],
          });
        }
        seen.add(note.id);
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
  cursor: z.string().max(200).optional(),
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
