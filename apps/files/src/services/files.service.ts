import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  FILE_URL_TTL_SECONDS,
  UPLOAD_PART_MAX_BYTES,
  VaultError,
  type CloudinaryUploadUrlResponse,
  type CreateUploadBody,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileCountsResponse,
  type FileEncryptionMetadata,
  type FileListResponse,
  type FileMetadataBody,
  type FileResponse,
  type PreviewResponse,
  type RewrapFileKeyRequest,
  type RpcAuth,
  type ScanFileResult,
  type StorageType,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from '@vault/contracts';
import { MAX_URL_TTL_SECONDS, objectKey, partCount, type StorageDriver } from '@vault/storage';
import { STORAGE_ENABLE_SETTINGS, type FilesConfig } from '../config/files.config';
import type { FileEntity } from '../entities/file.entity';
import { toEncryptionMetadata, toFileDto, toScanJob } from '../mappers/file.mapper';
import { FILES_CONFIG } from '../repositories/connections';
import { FilesRepository } from '../repositories/files.repository';
import { QueuesRepository } from '../repositories/queues.repository';
import { StorageRepository } from '../repositories/storage.repository';

const notFound = () => new VaultError(ErrorCode.NOT_FOUND, 'File not found');

/** SHA-256 over the sealed fields of an upload: the same request twice is one upload. */
function uploadHash(body: FileMetadataBody, storageType: StorageType): string {
  const fields = [
    storageType,
    body.size,
    body.encryptedSize,
    body.chunkSize,
    body.iv,
    body.wrappedKey,
    body.encryptedName,
    body.encryptedMimeType,
    body.encryptedTags,
    body.encryptedThumbnail ?? '',
  ];
  return createHash('sha256').update(fields.join('\n')).digest('hex');
}

/**
 * The files rules: uploads begin pending and become files only once the stored object's size
 * is exactly the declared `encryptedSize`; every call names its owner (another user's id is a
 * 404); the trash; signed, 5-minute, one-object URLs; scans queued on completion.
 */
@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);

  constructor(
    @Inject(FILES_CONFIG) private readonly config: FilesConfig,
    private readonly files: FilesRepository,
    private readonly storage: StorageRepository,
    private readonly queues: QueuesRepository,
  ) {}

  /**
   * The configured kinds (`types`, the first shape of the answer), every supported kind with
   * whether it is configured and the settings that turn it on (`kinds`), and the default.
   * Uploads to a kind that is not configured stay refused (STORAGE_NOT_CONFIGURED).
   */
  storageTypes(): StorageTypesResponse {
    return {
      types: this.storage.configured(),
      kinds: this.storage
        .kinds()
        .map((kind) => ({ ...kind, enableWith: [...STORAGE_ENABLE_SETTINGS[kind.type]] })),
      default: this.storage.defaultType,
    };
  }

  /** Records the pending file (or finds the same request's record: an idempotent retry). */
  private async beginUpload(
    auth: RpcAuth,
    body: FileMetadataBody,
    storageType: StorageType,
  ): Promise<FileEntity> {
    this.storage.driver(storageType); // 400 when not configured
    const bodyHash = uploadHash(body, storageType);
    const key = objectKey(auth.userId, body.fileId);
    const inserted = await this.files.insertPending({
      id: body.fileId,
      ownerId: auth.userId,
      storageType,
      objectKey: key,
      encryptedName: body.encryptedName,
      encryptedMimeType: body.encryptedMimeType,
      encryptedTags: body.encryptedTags,
      wrappedKey: body.wrappedKey,
      iv: body.iv,
      chunkSize: body.chunkSize,
      size: body.size,
      encryptedSize: body.encryptedSize,
      encryptedThumbnail: body.encryptedThumbnail ?? null,
      bodyHash,
      createdAt: new Date(),
    });
    const row = await this.files.findById(body.fileId);
    if (!row) throw new VaultError(ErrorCode.CONFLICT, 'File id already exists');
    if (!inserted && (row.ownerId !== auth.userId || row.bodyHash !== bodyHash || row.status !== 'pending')) {
      throw new VaultError(ErrorCode.CONFLICT, 'File id already exists');
    }
    return row;
  }

  async createUpload(auth: RpcAuth, body: CreateUploadBody): Promise<CreateUploadResponse> {
    const { storageType, ...metadata } = body;
    const row = await this.beginUpload(auth, metadata, storageType);
    if (!this.storage.usesBlobRoute(storageType)) return this.createDirectUpload(row);
    const signed = this.storage.signBlobUrl(row.objectKey, 'put', FILE_URL_TTL_SECONDS, row.encryptedSize);
    return {
      fileId: row.id,
      uploadUrl: signed.url,
      expiresAt: signed.expiresAt.toISOString(),
      // The local disk stores parts itself; Cloudinary takes them as chunks of its chunked upload.
      ...(this.storage.takesParts(storageType) ? { partSize: UPLOAD_PART_MAX_BYTES } : {}),
    };
  }

  /**
   * S3: the browser sends the bytes straight to the bucket. `uploadUrl` is a presigned PUT of the
   * whole object (5 minutes); `partUrls` the same in parts of `partSize`: the whole-object URL
   * for a one-part file, else presigned UploadPart URLs of a multipart upload begun here (its id
   * kept on the row, so upload-complete, the cleanup and deletes can finish or abort it). A repeated
   * upload-url begins a new multipart upload and aborts the earlier one.
   */
  private async createDirectUpload(row: FileEntity): Promise<CreateUploadResponse> {
    const driver = this.storage.driver(row.storageType);
    const signed = await driver.createUploadUrl(row.objectKey, {
      contentLength: row.encryptedSize,
      expiresInSeconds: FILE_URL_TTL_SECONDS,
    });
    const answer = { fileId: row.id, uploadUrl: signed.url, expiresAt: signed.expiresAt.toISOString() };
    if (!driver.startMultipart || !driver.signMultipartParts) return answer;
    const layout = this.layoutOf(row);
    if (partCount(layout) === 1) return { ...answer, partSize: layout.partSize, partUrls: [signed.url] };
    const uploadId = await driver.startMultipart(row.objectKey);
    if (!(await this.files.swapUploadId(row.id, row.uploadId, uploadId))) {
      await this.abortMultipart(row, uploadId);
      throw new VaultError(ErrorCode.CONFLICT, 'This upload was started again meanwhile; please try again');
    }
    if (row.uploadId !== null) await this.abortMultipart(row, row.uploadId);
    // Each URL writes one part of this upload only, so it is worth nothing once the upload is
    // completed or aborted; it may live until the cleanup aborts an abandoned one.
    const expiresInSeconds = Math.min(this.config.cleanup.abandonSeconds, MAX_URL_TTL_SECONDS);
    const parts = await driver.signMultipartParts(row.objectKey, uploadId, { ...layout, expiresInSeconds });
    return { ...answer, partSize: layout.partSize, partUrls: parts.map((p) => p.url) };
  }

  /** How an upload is cut into parts: UPLOAD_PART_MAX_BYTES each, the last one shorter. */
  private layoutOf(row: FileEntity): { total: number; partSize: number } {
    return { total: row.encryptedSize, partSize: UPLOAD_PART_MAX_BYTES };
  }

  /** Aborts a multipart upload; false (logged) when the store could not be reached. */
  private abortMultipart(row: FileEntity, uploadId: string): Promise<boolean> {
    return this.storage.abortMultipart(row, uploadId).then(
      () => true,
      () => false,
    );
  }

  /** Signed parameters for a browser's direct upload to Cloudinary (docs/api.md "Files"). */
  async createCloudinaryUpload(auth: RpcAuth, body: FileMetadataBody): Promise<CloudinaryUploadUrlResponse> {
    const row = await this.beginUpload(auth, body, 'cloudinary');
    const direct = await this.storage.cloudinary().createDirectUpload(row.objectKey, FILE_URL_TTL_SECONDS);
    return {
      fileId: row.id,
      uploadUrl: direct.uploadUrl,
      fields: direct.fields,
      expiresAt: new Date(Date.now() + FILE_URL_TTL_SECONDS * 1000).toISOString(),
    };
  }

  /**
   * Checks the stored object against `encryptedSize`, then makes the file visible and queues its scan.
   * `plaintextSha256` (the malware-fingerprint opt-in) only travels in the scan job: it is not stored.
   */
  async completeUpload(auth: RpcAuth, fileId: string, plaintextSha256?: string): Promise<FileResponse> {
    const row = await this.files.findOwned(auth.userId, fileId);
    if (!row) throw notFound();
    if (row.status === 'active') return { file: toFileDto(row) }; // a repeated complete
    const driver = this.storage.driver(row.storageType);
    if (row.uploadId !== null && driver.completeMultipart) await this.completeMultipart(row, driver);
    const stored = await driver.stat(row.objectKey);
    if (!stored) {
      throw new VaultError(ErrorCode.UPLOAD_SIZE_MISMATCH, 'No uploaded data was found for this file');
    }
    if (stored.size !== row.encryptedSize) {
      // The object is not what was declared: it goes, the pending record stays for a retry.
      await driver.delete(row.objectKey);
      throw new VaultError(
        ErrorCode.UPLOAD_SIZE_MISMATCH,
        `The uploaded file is ${stored.size} bytes; ${row.encryptedSize} were declared`,
      );
    }
    const active = await this.files.activate(auth.userId, fileId, new Date());
    const file = active ?? (await this.files.findOwned(auth.userId, fileId));
    if (!file || file.status !== 'active') throw notFound();
    await this.queues.queueScan(toScanJob(file, plaintextSha256)).catch((error: unknown) =>
      // The upload stands; the badge stays 'pending' and says so. Logged for the operator.
      this.logger.warn(
        `Could not queue the scan of ${file.id}: ${error instanceof Error ? error.message : error}`,
      ),
    );
    return { file: toFileDto(file) };
  }

  /**
   * Joins an S3 multipart upload from the parts the store lists (never from the client's word),
   * only when they are exactly the declared layout. Afterwards the object is checked like any
   * other (stat). A store that no longer knows the upload (completed by an earlier call whose
   * answer was lost, or aborted) leaves that to the stat too. Parts that are not the layout: a
   * client that sent the whole object to `uploadUrl` instead stands; otherwise the multipart
   * upload is aborted (its parts freed) and the pending record stays, so upload-url can begin
   * the upload again.
   */
  private async completeMultipart(row: FileEntity, driver: StorageDriver): Promise<void> {
    const uploadId = row.uploadId as string;
    try {
      await driver.completeMultipart!(row.objectKey, uploadId, this.layoutOf(row));
    } catch (error) {
      if (!(error instanceof VaultError) || error.code !== ErrorCode.UPLOAD_SIZE_MISMATCH) throw error;
      const whole = await driver.stat(row.objectKey);
      if (await this.abortMultipart(row, uploadId)) {
        await this.files.swapUploadId(row.id, uploadId, null);
      }
      if (whole?.size === row.encryptedSize) return;
      if (whole) await driver.delete(row.objectKey);
      throw error;
    }
    await this.files.swapUploadId(row.id, uploadId, null);
  }

  async list(auth: RpcAuth): Promise<FileListResponse> {
    return { files: (await this.files.listActive(auth.userId)).map(toFileDto) };
  }

  async listDeleted(auth: RpcAuth): Promise<FileListResponse> {
    return { files: (await this.files.listDeleted(auth.userId)).map(toFileDto) };
  }

  async remove(auth: RpcAuth, id: string): Promise<void> {
    if (!(await this.files.setDeleted(auth.userId, id, true, new Date()))) throw notFound();
  }

  async restore(auth: RpcAuth, id: string): Promise<FileResponse> {
    if (!(await this.files.setDeleted(auth.userId, id, false, new Date()))) throw notFound();
    const restored = await this.files.findOwned(auth.userId, id);
    if (!restored) throw notFound();
    return { file: toFileDto(restored) };
  }

  /**
   * Replaces only the file's wrapped key (the legacy-key re-wrap after an access reset), in the
   * trash or not. A pending upload is not a file yet (404): its key is the one it is uploaded
   * with. Nothing else changes (no timestamp, no scan). Idempotent.
   */
  async rewrapKey(auth: RpcAuth, body: RewrapFileKeyRequest): Promise<void> {
    if (!(await this.files.setWrappedKey(auth.userId, body.id, body.wrappedKey))) throw notFound();
    this.logger.debug(`File ${body.id} key re-wrapped by user ${auth.userId}`);
  }

  /** The stored object first, then the row: the other way round, a failure would orphan the object. */
  private async destroy(row: FileEntity): Promise<void> {
    await this.storage.discard(row);
    await this.files.deleteRow(row.ownerId, row.id);
  }

  async purge(auth: RpcAuth, id: string): Promise<void> {
    const row = await this.files.findOwned(auth.userId, id);
    if (!row || row.status !== 'active' || !row.isDeleted) throw notFound();
    await this.destroy(row);
  }

  async emptyTrash(auth: RpcAuth): Promise<{ deleted: number }> {
    const rows = await this.files.listAllOwned(auth.userId, true);
    for (const row of rows) await this.destroy(row);
    return { deleted: rows.length };
  }

  /** Account deletion: every file, object and pending upload of the user. */
  async purgeOwner(userId: string): Promise<{ deleted: number }> {
    const rows = await this.files.listAllOwned(userId, false);
    for (const row of rows) await this.destroy(row);
    return { deleted: rows.length };
  }

  counts(auth: RpcAuth): Promise<FileCountsResponse> {
    return this.files.counts(auth.userId);
  }

  private async readable(auth: RpcAuth, id: string): Promise<FileEntity> {
    const row = await this.files.findOwned(auth.userId, id);
    if (!row || row.status !== 'active' || row.isDeleted) throw notFound();
    if (row.virusScanResult === 'infected') throw new VaultError(ErrorCode.FILE_INFECTED);
    return row;
  }

  private async signedGet(row: FileEntity): Promise<{ url: string; expiresAt: Date }> {
    if (this.storage.usesBlobRoute(row.storageType)) {
      return this.storage.signBlobUrl(row.objectKey, 'get', FILE_URL_TTL_SECONDS);
    }
    return this.storage
      .driver(row.storageType)
      .createDownloadUrl(row.objectKey, { expiresInSeconds: FILE_URL_TTL_SECONDS });
  }

  /** The gateway re-checked the caller's authKey before asking. */
  async downloadUrl(auth: RpcAuth, id: string): Promise<DownloadUrlResponse> {
    const row = await this.readable(auth, id);
    const signed = await this.signedGet(row);
    return {
      downloadUrl: signed.url,
      size: row.size,
      encryptedSize: row.encryptedSize,
      expiresAt: signed.expiresAt.toISOString(),
    };
  }

  async previewUrl(auth: RpcAuth, id: string): Promise<PreviewResponse> {
    const row = await this.readable(auth, id);
    const signed = await this.signedGet(row);
    return { content: signed.url, expiresAt: signed.expiresAt.toISOString() };
  }

  async metadata(auth: RpcAuth, id: string): Promise<FileEncryptionMetadata> {
    const row = await this.files.findOwned(auth.userId, id);
    if (!row || row.status !== 'active') throw notFound();
    return toEncryptionMetadata(row);
  }

  async thumbnail(auth: RpcAuth, id: string): Promise<ThumbnailResponse> {
    const row = await this.files.findOwned(auth.userId, id);
    if (!row || row.status !== 'active' || row.encryptedThumbnail === null) {
      throw new VaultError(ErrorCode.NOT_FOUND, 'No thumbnail for this file');
    }
    return { encryptedThumbnail: row.encryptedThumbnail };
  }

  async recordScan(result: ScanFileResult): Promise<void> {
    await this.files.recordScan(result.fileId, result.result, result.detail);
  }

  /** The scheduled cleanup: uploads begun more than FILES_UPLOAD_ABANDON_SECONDS ago and never completed. */
  async cleanupAbandoned(now: Date = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.cleanup.abandonSeconds * 1000);
    let removed = 0;
    for (;;) {
      const rows = await this.files.listAbandoned(before, 100);
      if (rows.length === 0) return removed;
      for (const row of rows) {
        if (this.storage.has(row.storageType)) await this.storage.discard(row);
        if (await this.files.deletePending(row.id)) removed++;
      }
      if (rows.length < 100) return removed;
    }
  }
}
