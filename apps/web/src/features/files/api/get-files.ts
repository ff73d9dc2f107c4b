import { fileListResponseSchema, type FileDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** GET /api/files → {files}: the active files, sealed (the files store decrypts them in the worker). */
export async function getFiles(api: ApiClient, signal?: AbortSignal): Promise<FileDto[]> {
  return parseResponse(fileListResponseSchema, await api.get<unknown>('/files', signal ? { signal } : {}))
    .files;
}
