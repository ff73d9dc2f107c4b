import { downloadUrlResponseSchema, type DownloadUrlResponse, type FileAccessBody } from '@vault/contracts';
import type { ApiClient } from '../../../../lib/api-client';
import { parseResponse } from '../../../../lib/parse-response';

/**
 * POST /api/files/{id}/download-url {authKey} → {downloadUrl, size, encryptedSize, expiresAt}.
 * The URL is signed and lives 5 minutes: relative (`/api/files/blob/...`, this deployment's own
 * storage) or absolute (an S3 presigned URL). 401 INVALID_PASSWORD for a wrong password; 423
 * {retryAfter} while locked out; 403 FILE_INFECTED for a file the scan flagged.
 */
export async function getDownloadUrl(
  api: ApiClient,
  fileId: string,
  body: FileAccessBody,
): Promise<DownloadUrlResponse> {
  return parseResponse(
    downloadUrlResponseSchema,
    await api.post<unknown>(`/files/${encodeURIComponent(fileId)}/download-url`, body),
  );
}
