import { createUploadResponseSchema, type CreateUploadResponse, type StorageType } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedUploadFields } from '../../../workers/files-messages';

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

/** The sealed metadata fields every upload route takes, and nothing else (the routes refuse extra fields). */
export function metadataBody(fields: SealedUploadFields): SealedUploadFields {
  const body: SealedUploadFields = {
    fileId: fields.fileId,
    size: fields.size,
    encryptedSize: fields.encryptedSize,
    chunkSize: fields.chunkSize,
    iv: fields.iv,
    wrappedKey: fields.wrappedKey,
    encryptedName: fields.encryptedName,
    encryptedMimeType: fields.encryptedMimeType,
    encryptedTags: fields.encryptedTags,
  };
  if (fields.encryptedThumbnail) body.encryptedThumbnail = fields.encryptedThumbnail;
  return body;
}
