import type { FileDto, FileEncryptionMetadata } from '@vault/contracts';
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
