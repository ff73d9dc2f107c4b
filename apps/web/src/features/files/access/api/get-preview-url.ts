import { previewResponseSchema, type FileAccessBody, type PreviewResponse } from '@vault/contracts';
import type { ApiClient } from '../../../../lib/api-client';
import { parseResponse } from '../../../../lib/parse-response';

/**
 * POST /api/files/{id}/preview {authKey} → {content, expiresAt}: `content` is a signed URL of the
 * stored (encrypted) object, like the download URL; the preview is decrypted on this device.
 * Failures as for the download URL (401 INVALID_PASSWORD, 423, 403 FILE_INFECTED).
 */
export async function getPreviewUrl(
  api: ApiClient,
  fileId: string,
  body: FileAccessBody,
): Promise<PreviewResponse> {
  return parseResponse(
    previewResponseSchema,
    await api.post<unknown>(`/files/${encodeURIComponent(fileId)}/preview`, body),
  );
}
