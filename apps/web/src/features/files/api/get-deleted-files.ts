import { fileListResponseSchema, type FileDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** GET /api/files/deleted → {files}: the files in the trash, sealed. */
export async function getDeletedFiles(api: ApiClient): Promise<FileDto[]> {
  return parseResponse(fileListResponseSchema, await api.get<unknown>('/files/deleted')).files;
}
