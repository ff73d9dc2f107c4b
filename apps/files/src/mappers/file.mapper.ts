import type { FileDto, FileEncryptionMetadata, ScanFileJob } from '@vault/contracts';
import type { FileEntity } from '../entities/file.entity';

/** The API's `file` (docs/api.md "Files"): sealed fields and sizes, never the object key. */
export function toFileDto(file: FileEntity): FileDto {
  return {
    id: file.id,
    encryptedName: file.encryptedName,
    encryptedMimeType: file.encryptedMimeType,
    encryptedTags: file.encryptedTags,
    wrappedKey: file.wrappedKey,
    iv: file.iv,
    chunkSize: file.chunkSize,
    size: file.size,
    encryptedSize: file.encryptedSize,
    storageType: file.storageType,
    uploadedAt: (file.uploadedAt ?? file.createdAt).toISOString(),
    deletedAt: file.deletedAt ? file.deletedAt.toISOString() : null,
    virusScanned: file.virusScanned,
    virusScanResult: file.virusScanResult,
    virusScanDetail: file.scanDetail,
    hasThumbnail: file.encryptedThumbnail !== null,
  };
}

export function toEncryptionMetadata(file: FileEntity): FileEncryptionMetadata {
  return {
    encryptedName: file.encryptedName,
    encryptedMimeType: file.encryptedMimeType,
    originalSize: file.size,
    encryptedSize: file.encryptedSize,
    iv: file.iv,
    chunkSize: file.chunkSize,
    wrappedKey: file.wrappedKey,
  };
}

/** The scan job of a stored file: ids, where the object is and its sizes (the fingerprint only on upload). */
export function toScanJob(
  file: Pick<
    FileEntity,
    'id' | 'ownerId' | 'storageType' | 'objectKey' | 'size' | 'encryptedSize' | 'chunkSize'
  >,
  plaintextSha256?: string,
): ScanFileJob {
  return {
    fileId: file.id,
    ownerId: file.ownerId,
    storageType: file.storageType,
    objectKey: file.objectKey,
    size: file.size,
    encryptedSize: file.encryptedSize,
    chunkSize: file.chunkSize,
    ...(plaintextSha256 ? { plaintextSha256 } : {}),
  };
}
