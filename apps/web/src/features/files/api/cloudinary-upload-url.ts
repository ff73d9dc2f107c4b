import { cloudinaryUploadUrlResponseSchema, type CloudinaryUploadUrlResponse } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import type { SealedUploadFields } from '../../../workers/files-messages';
import { metadataBody } from './create-upload';

/**
 * POST /api/files/cloudinary/upload-url {the sealed metadata} → {fileId, uploadUrl, fields,
 * expiresAt}: signed parameters for a direct upload. The browser then POSTs multipart/form-data
 * to `uploadUrl` with every entry of `fields` and the encrypted bytes as `file`, and calls
 * upload-complete. The upload queue does not use it (Cloudinary uploads go through upload-url and
 * the blob route, which needs no third-party origin in the CSP); kept for the contract's route.
 */
export async function getCloudinaryUploadUrl(
  api: ApiClient,
  fields: SealedUploadFields,
): Promise<CloudinaryUploadUrlResponse> {
  return parseResponse(
    cloudinaryUploadUrlResponseSchema,
    await api.post<unknown>('/files/cloudinary/upload-url', metadataBody(fields)),
  );
}
