import { noteResponseSchema, type NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedNoteFields } from '../../../workers/notes-messages';

/** PUT /api/notes/{id} {title, content, tags, wrappedDEK} → {note}: every field re-sealed on this device. */
export async function updateNoteRequest(api: ApiClient, body: SealedNoteFields): Promise<NoteDto> {
  const data = await api.put<unknown>(`/notes/${encodeURIComponent(body.id)}`, {
    title: body.title,
    content: body.content,
    tags: body.tags,
    wrappedDEK: body.wrappedDEK,
  });
  return parseResponse(noteResponseSchema, data).note;
}
