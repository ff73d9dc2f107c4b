import { createNoteBatchResponseSchema, type NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedNoteFields } from '../../../workers/notes-messages';
import { requireSameNote } from './same-note';

/** One note of a batch: sealed, with an import's `createdAt` and `updatedAt` (both or neither). */
export type BatchNote = SealedNoteFields & { createdAt?: string; updatedAt?: string };

/**
 * POST /api/notes/batch {notes: [{id, title, content, tags, wrappedDEK, createdAt?, updatedAt?}, ...]}
 * → 201 {notes}, in the order sent. 1 to NOTE_BATCH_MAX_NOTES notes and at most
 * NOTE_BATCH_MAX_BYTES of sealed fields in all; one transaction, so a failure stores none of them.
 * Dates, when given, are kept (plaintext metadata the server holds for every note anyway). Each
 * note is idempotent like a single create, so a failed call may be retried with the very same
 * body. A 409 names the taken ids in the error body's `ids`.
 */
export async function createNotesBatch(api: ApiClient, notes: readonly BatchNote[]): Promise<NoteDto[]> {
  const data = await api.post<unknown>('/notes/batch', {
    notes: notes.map((n) => ({
      id: n.id,
      title: n.title,
      content: n.content,
      tags: n.tags,
      wrappedDEK: n.wrappedDEK,
      ...(n.createdAt !== undefined && n.updatedAt !== undefined
        ? { createdAt: n.createdAt, updatedAt: n.updatedAt }
        : {}),
    })),
  });
  const saved = parseResponse(createNoteBatchResponseSchema, data).notes;
  if (saved.length !== notes.length) throw new ApiError(502, 'Unexpected response from server');
  // Each answer is the note sent in its place (the import shows the plaintext under that id).
  return saved.map((note, i) => requireSameNote(notes[i]!, note));
}

/** The ids a batch's 409 names as taken (empty when the answer names none). */
export function takenIds(error: ApiError): string[] {
  const ids = error.body?.['ids'];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}
