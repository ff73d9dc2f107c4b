import { noteResponseSchema, type NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** POST /api/notes/{id}/restore → {note}: back to the vault, in its old place (updatedAt unchanged). */
export async function restoreNote(api: ApiClient, id: string): Promise<NoteDto> {
  return parseResponse(
    noteResponseSchema,
    await api.post<unknown>(`/notes/${encodeURIComponent(id)}/restore`),
  ).note;
}
