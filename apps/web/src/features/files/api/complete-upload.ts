import { fileResponseSchema, type FileDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/**
 * POST /api/files/upload-complete {fileId} → {file}: the server checks the stored object's size
 * against `encryptedSize` and queues the scan (local disk and S3 storage).
 */
export async function completeUpload(api: ApiClient, fileId: string): Promise<FileDto> {
  return parseResponse(fileResponseSchema, await api.post<unknown>('/files/upload-complete', { fileId }))
    .file;
}
