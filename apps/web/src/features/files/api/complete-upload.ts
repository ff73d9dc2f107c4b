import { fileResponseSchema, type FileDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/**
 * POST /api/files/upload-complete {fileId} → {file}: the server checks the stored object's size
 * against `encryptedSize`, makes the file visible and queues the scan (every storage type).
 */
export async function completeUpload(api: ApiClient, fileId: string): Promise<FileDto> {
  return parseResponse(fileResponseSchema, await api.post<unknown>('/files/upload-complete', { fileId }))
    .file;
}
