import { emptyTrashResponseSchema } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** DELETE /api/notes/trash → {deleted}: every note in the trash removed for good; answers how many. */
export async function emptyTrash(api: ApiClient): Promise<number> {
  return parseResponse(emptyTrashResponseSchema, await api.delete<unknown>('/notes/trash')).deleted;
}
