import { createUploadResponseSchema, type CreateUploadResponse, type StorageType } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedUploadFields } from '../../../workers/files-messages';
import { metadataBody } from '../../../workers/files-upload-body';

/**
 * POST /api/files/upload-url {fileId, size, encryptedSize, chunkSize, iv, wrappedKey,
 * encryptedName, encryptedMimeType, encryptedTags, encryptedThumbnail?, storageType} →
 * {fileId, uploadUrl, expiresAt}. Records a pending file and signs a PUT of its encrypted bytes
 * (local disk and Cloudinary: a relative `/api/files/blob/...` URL of the files service's blob
 * route; S3: an absolute presigned URL).
 */
export async function createUpload(
  api: ApiClient,
  fields: SealedUploadFields,
  storageType: StorageType,
): Promise<CreateUploadResponse> {
  return parseResponse(
    createUploadResponseSchema,
    await api.post<unknown>('/files/upload-url', { ...metadataBody(fields), storageType }),
  );
}
