import type { SealedUploadFields } from './files-messages';

/**
 * The sealed metadata fields every upload route takes (POST /api/files/upload-url), and nothing
 * else: the routes refuse extra fields. Shared by the File Vault's uploads and the testing
 * dashboard's end-to-end check.
 */
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
