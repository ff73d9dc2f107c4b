import type { ApiClient } from '../../../lib/api-client';

/** DELETE /api/notes/{id}/permanent → 204: removes a note in the trash for good. */
export async function deleteNotePermanently(api: ApiClient, id: string): Promise<void> {
  await api.delete<void>(`/notes/${encodeURIComponent(id)}/permanent`);
}
