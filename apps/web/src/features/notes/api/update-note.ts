import { noteResponseSchema, type NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedNoteFields } from '../../../workers/notes-messages';
import { requireSameNote } from './same-note';

/**
 * PUT /api/notes/{id} {title, content, tags, wrappedDEK} → {note}: every field re-sealed on this
 * device. An answer that is not the note sent is refused (requireSameNote).
 */
export async function updateNoteRequest(api: ApiClient, body: SealedNoteFields): Promise<NoteDto> {
  const data = await api.put<unknown>(`/notes/${encodeURIComponent(body.id)}`, {
    title: body.title,
    content: body.content,
    tags: body.tags,
    wrappedDEK: body.wrappedDEK,
  });
  return requireSameNote(body, parseResponse(noteResponseSchema, data).note);
}
