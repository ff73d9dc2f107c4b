import type { ApiClient } from '../../../lib/api-client';

/** DELETE /api/notes/{id} → 204: a soft delete, the note moves to the trash. */
export async function deleteNote(api: ApiClient, id: string): Promise<void> {
  await api.delete<void>(`/notes/${encodeURIComponent(id)}`);
}
