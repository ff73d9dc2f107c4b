import { fileResponseSchema, type FileDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** POST /api/files/{id}/restore → {file}: back from the trash to the File Vault. */
export async function restoreFile(api: ApiClient, id: string): Promise<FileDto> {
  return parseResponse(
    fileResponseSchema,
    await api.post<unknown>(`/files/${encodeURIComponent(id)}/restore`),
  ).file;
}
