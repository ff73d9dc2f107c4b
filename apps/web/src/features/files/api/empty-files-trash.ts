import type { ApiClient } from '../../../lib/api-client';

/**
 * DELETE /api/files/trash → 204 (an addition beside the notes' DELETE /api/notes/trash): every
 * file in the trash removed for good, stored objects too. Answers how many when the server says
 * (`{deleted}`), else null.
 */
export async function emptyFilesTrash(api: ApiClient): Promise<number | null> {
  const data = await api.delete<unknown>('/files/trash');
  const deleted =
    typeof data === 'object' && data !== null ? (data as { deleted?: unknown }).deleted : undefined;
  return typeof deleted === 'number' && Number.isInteger(deleted) && deleted >= 0 ? deleted : null;
}
