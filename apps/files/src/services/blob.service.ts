import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ErrorCode, UPLOAD_PART_MAX_BYTES, VaultError } from '@vault/contracts';
import type {
  BlobSignatureParams,
  ByteRange,
  StorageDriver,
  UploadPart,
  UploadPartResult,
} from '@vault/storage';
import type { FileEntity } from '../entities/file.entity';
import { FilesRepository } from '../repositories/files.repository';
import { StorageRepository } from '../repositories/storage.repository';
import { PartOrder } from './part-order';

export interface BlobDownload {
  body: Readable;
  /** Bytes of the whole object. */
  size: number;
  /** The inclusive range served, when the request asked for one. */
  range?: ByteRange;
}

const outOfOrder = (stored: number) =>
  new VaultError(ErrorCode.CONFLICT, `Parts must arrive in order: the next part starts at byte ${stored}`, {
    stored,
  });

/**
 * The blob route's rules (local disk, and Cloudinary through the service): a signed URL names
 * one operation on one object until it expires; an upload goes only to a pending file and must
 * be exactly the declared `encryptedSize`; a download only of a listed file that is not infected.
 * A store that fails answers STORAGE_UNAVAILABLE (StorageRepository.driver).
 */
@Injectable()
export class BlobService {
  /** The parts of one Cloudinary upload go one after another, in byte order. */
  private readonly partOrder = new PartOrder();

  constructor(
    private readonly files: FilesRepository,
    private readonly storage: StorageRepository,
  ) {}

  async upload(
    params: BlobSignatureParams,
    body: Readable,
    contentLength: number | undefined,
  ): Promise<void> {
    const signed = this.storage.verifyBlobUrl(params);
    if (signed.op !== 'put') throw new VaultError(ErrorCode.LINK_INVALID);
    const row = await this.files.findByObjectKey(signed.key);
    if (!row || row.status !== 'pending' || row.encryptedSize !== signed.len) {
      throw new VaultError(ErrorCode.LINK_INVALID);
    }
    if (contentLength !== undefined && contentLength !== row.encryptedSize) {
      throw new VaultError(
        contentLength > row.encryptedSize ? ErrorCode.PAYLOAD_TOO_LARGE : ErrorCode.UPLOAD_SIZE_MISMATCH,
        `The upload is ${contentLength} bytes; ${row.encryptedSize} were declared`,
      );
    }
    const driver = this.storage.driver(row.storageType);
    const stored = await driver.put(row.objectKey, body, { maxBytes: row.encryptedSize });
    if (stored.size !== row.encryptedSize) {
      await driver.delete(row.objectKey);
      throw new VaultError(
        ErrorCode.UPLOAD_SIZE_MISMATCH,
        `The upload is ${stored.size} bytes; ${row.encryptedSize} were declared`,
      );
    }
  }

  /**
   * One part of an upload in parts (`Content-Range: bytes first-last/total`), in order. Every
   * rule is checked before the body is read, and a refused part changes nothing. The first part
   * needs a live URL; a continuation may arrive after the URL expired, as long as the upload is
   * still pending and exactly `first` bytes are stored (an upload that began in time may finish,
   * like a whole PUT; the abandoned-upload cleanup bounds it).
   */
  async uploadPart(
    params: BlobSignatureParams,
    body: Readable,
    contentLength: number | undefined,
    part: UploadPart,
  ): Promise<UploadPartResult> {
    const signed = this.storage.verifyBlobUrlAnyExpiry(params);
    if (signed.op !== 'put' || (signed.expired && part.first === 0)) {
      throw new VaultError(ErrorCode.LINK_INVALID);
    }
    const row = await this.files.findByObjectKey(signed.key);
    if (!row || row.status !== 'pending' || row.encryptedSize !== signed.len) {
      throw new VaultError(ErrorCode.LINK_INVALID);
    }
    // The range's own shape (first ≤ last < total) is the blob route's parseContentRange's, and
    // the driver asserts it again.
    const { first, last, total } = part;
    if (total !== row.encryptedSize) {
      throw new VaultError(
        ErrorCode.UPLOAD_SIZE_MISMATCH,
        `The upload is ${total} bytes; ${row.encryptedSize} were declared`,
      );
    }
    const length = last - first + 1;
    if (length > UPLOAD_PART_MAX_BYTES) {
      throw new VaultError(
        ErrorCode.PAYLOAD_TOO_LARGE,
        `A part may carry at most ${UPLOAD_PART_MAX_BYTES} bytes; this one has ${length}`,
      );
    }
    if (contentLength !== undefined && contentLength !== length) {
      throw new VaultError(
        contentLength > length ? ErrorCode.PAYLOAD_TOO_LARGE : ErrorCode.UPLOAD_SIZE_MISMATCH,
        `The part is ${contentLength} bytes; its Content-Range has ${length}`,
      );
    }
    const driver = this.storage.driver(row.storageType);
    if (!driver.appendPart && !driver.sendChunk) {
      throw new VaultError(
        ErrorCode.VALIDATION_FAILED,
        'This storage takes the upload in one request, without Content-Range',
      );
    }
    try {
      return driver.appendPart
        ? await driver.appendPart(row.objectKey, body, part)
        : await this.sendChunk(row, driver, body, part);
    } catch (error) {
      // An expired URL only continues an upload that stands exactly where this part starts.
      if (signed.expired && error instanceof VaultError && error.code === ErrorCode.CONFLICT) {
        throw new VaultError(ErrorCode.LINK_INVALID);
      }
      throw error;
    }
  }

  /**
   * A part passed on as one chunk of the store's chunked upload (Cloudinary), which needs the
   * first chunk first and the last one after all others have been answered: the parts of one
   * upload that reach this process at once wait for each other in byte order (PartOrder), and
   * each must start where the upload stands (the row's `uploaded_bytes`, moved on once Cloudinary
   * has answered a chunk). A first part begins a new chunked upload (a new X-Unique-Upload-Id), so
   * an upload can start over; a part that failed can be sent again. With several replicas, a part
   * that reaches another one early is refused as out of order (409 with `stored`) and the client
   * resends it.
   */
  private sendChunk(
    row: FileEntity,
    driver: StorageDriver,
    body: Readable,
    part: UploadPart,
  ): Promise<UploadPartResult> {
    const storedBytes = async () => {
      const current = await this.files.findByObjectKey(row.objectKey);
      return current?.uploadId ? current.uploadedBytes : 0;
    };
    return this.partOrder.run(row.id, part.first, part.last + 1, storedBytes, async () => {
      // Read again: the parts before this one may have moved the upload on while it waited.
      const current = await this.files.findByObjectKey(row.objectKey);
      if (!current || current.status !== 'pending') throw new VaultError(ErrorCode.LINK_INVALID);
      let uploadId = current.uploadId;
      if (part.first === 0) {
        uploadId = randomBytes(16).toString('hex');
        if (!(await this.files.swapUploadId(current.id, current.uploadId, uploadId))) {
          throw outOfOrder(0);
        }
      } else if (uploadId === null || part.first !== current.uploadedBytes) {
        throw outOfOrder(uploadId === null ? 0 : current.uploadedBytes);
      }
      const chunk = { ...part, uploadId };
      const { complete } = await driver.sendChunk!(current.objectKey, body, chunk);
      await this.files.setUploadedBytes(current.id, uploadId, part.last + 1);
      return { stored: part.last + 1, complete };
    });
  }

  async download(params: BlobSignatureParams, range: ByteRange | undefined): Promise<BlobDownload> {
    const signed = this.storage.verifyBlobUrl(params);
    if (signed.op !== 'get') throw new VaultError(ErrorCode.LINK_INVALID);
    const row = await this.files.findByObjectKey(signed.key);
    if (!row || row.status !== 'active' || row.isDeleted)
      throw new VaultError(ErrorCode.NOT_FOUND, 'File not found');
    if (row.virusScanResult === 'infected') throw new VaultError(ErrorCode.FILE_INFECTED);
    const driver = this.storage.driver(row.storageType);
    const info = await driver.stat(row.objectKey);
    if (!info) throw new VaultError(ErrorCode.NOT_FOUND, 'File not found');
    if (range) {
      if (range.start >= info.size || range.start > range.end) {
        throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Range not satisfiable');
      }
      const clamped = { start: range.start, end: Math.min(range.end, info.size - 1) };
      const body = await driver.get(row.objectKey, clamped);
      return { body, size: info.size, range: clamped };
    }
    return { body: await driver.get(row.objectKey), size: info.size };
  }
}
