import type { ApiClient } from '../../../lib/api-client';

/** DELETE /api/files/{id}/permanent → 204: a file in the trash removed for good, its stored object too. */
export async function purgeFile(api: ApiClient, id: string): Promise<void> {
  await api.delete<void>(`/files/${encodeURIComponent(id)}/permanent`);
}
