import type { ApiClient } from '../../../lib/api-client';

/** DELETE /api/files/{id} → 204: a soft delete, the file moves to the trash. */
export async function deleteFile(api: ApiClient, id: string): Promise<void> {
  await api.delete<void>(`/files/${encodeURIComponent(id)}`);
}
