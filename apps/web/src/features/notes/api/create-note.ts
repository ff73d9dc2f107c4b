import { noteResponseSchema, type NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedNoteFields } from '../../../workers/notes-messages';
import { requireSameNote } from './same-note';

/**
 * POST /api/notes {id, title, content, tags, wrappedDEK} → 201 {note}. The id is made on this
 * device (it is bound into every ciphertext); repeating the same request is a no-op that answers
 * the same note, so a failed call may be retried with the very same body. An answer that is not
 * the note sent is refused (requireSameNote).
 */
export async function createNote(api: ApiClient, body: SealedNoteFields): Promise<NoteDto> {
  const data = await api.post<unknown>('/notes', {
    id: body.id,
    title: body.title,
    content: body.content,
    tags: body.tags,
    wrappedDEK: body.wrappedDEK,
  });
  return requireSameNote(body, parseResponse(noteResponseSchema, data).note);
}
