import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { StorageType, VirusScanResult } from '@vault/contracts';

export type FileStatus = 'pending' | 'active';

/**
 * A row of `files.files`. The name, type and tags are ciphertext made on the client
 * (docs/crypto-protocol.md "Key and metadata"); the bytes live in a storage driver under `objectKey`.
 * A row is `pending` from upload-url until upload-complete has checked the stored object,
 * and only `active` rows are listed. Never leaves the service: map it with `toFileDto`.
 */
@Entity({ schema: 'files', name: 'files' })
export class FileEntity {
  /** Made by the client (UUID v4): bound into every ciphertext's AAD. */
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'owner_id' })
  ownerId!: string;

  @Column('text', { name: 'status' })
  status!: FileStatus;

  @Column('text', { name: 'storage_type' })
  storageType!: StorageType;

  @Column('text', { name: 'object_key' })
  objectKey!: string;

  @Column('text', { name: 'encrypted_name' })
  encryptedName!: string;

  @Column('text', { name: 'encrypted_mime_type' })
  encryptedMimeType!: string;

  @Column('text', { name: 'encrypted_tags' })
  encryptedTags!: string;

  /** The file key sealed under the vault key. */
  @Column('text', { name: 'wrapped_key' })
  wrappedKey!: string;

  /** Hex, 12 bytes: the base of every chunk IV. */
  @Column('text')
  iv!: string;

  @Column('integer', { name: 'chunk_size' })
  chunkSize!: number;

  /** Plaintext bytes (bigint in Postgres; at most 100 MiB, so a JS number is exact). */
  @Column('bigint', { transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  size!: number;

  @Column('bigint', {
    name: 'encrypted_size',
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  encryptedSize!: number;

  /** A small sealed picture for the card (GET /files/{id}/optimized), or null. */
  @Column('text', { name: 'encrypted_thumbnail', nullable: true })
  encryptedThumbnail!: string | null;

  @Column('boolean', { name: 'is_deleted', default: false })
  isDeleted!: boolean;

  @Column('boolean', { name: 'virus_scanned', default: false })
  virusScanned!: boolean;

  @Column('text', { name: 'virus_scan_result', default: 'pending' })
  virusScanResult!: VirusScanResult;

  /** What the scan examined and found, in words. */
  @Column('text', { name: 'scan_detail', nullable: true })
  scanDetail!: string | null;

  /**
   * A pending upload in parts that the store tracks: the S3 multipart upload's id, or the
   * X-Unique-Upload-Id of a Cloudinary chunked upload. Null otherwise (and once it ended).
   */
  @Column('text', { name: 'upload_id', nullable: true })
  uploadId!: string | null;

  /** Bytes a Cloudinary chunked upload has stored so far: the next part starts here. */
  @Column('bigint', {
    name: 'uploaded_bytes',
    default: 0,
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  uploadedBytes!: number;

  /** SHA-256 of the upload request's fields: tells an idempotent retry from a clash. */
  @Column('text', { name: 'body_hash' })
  bodyHash!: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  /** Set by upload-complete. */
  @Column('timestamptz', { name: 'uploaded_at', nullable: true })
  uploadedAt!: Date | null;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;
}
