import { fileResponseSchema, type CompleteUploadBody, type FileDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/**
 * POST /api/files/upload-complete {fileId, plaintextSha256?} → {file}: the server checks the
 * stored object's size against `encryptedSize`, makes the file visible and queues the scan (every
 * storage type). `plaintextSha256` only when the account opted in to the fingerprint check.
 */
export async function completeUpload(
  api: ApiClient,
  fileId: string,
  plaintextSha256?: string,
): Promise<FileDto> {
  const body: CompleteUploadBody = plaintextSha256 ? { fileId, plaintextSha256 } : { fileId };
  return parseResponse(fileResponseSchema, await api.post<unknown>('/files/upload-complete', body)).file;
}
