import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ErrorCode, VaultError } from '@vault/contracts';
import type { BlobSignatureParams, ByteRange } from '@vault/storage';
import { FilesRepository } from '../repositories/files.repository';
import { StorageRepository } from '../repositories/storage.repository';

export interface BlobDownload {
  body: Readable;
  /** Bytes of the whole object. */
  size: number;
  /** The inclusive range served, when the request asked for one. */
  range?: ByteRange;
}

/**
 * The blob route's rules (local disk, and Cloudinary through the service): a signed URL names
 * one operation on one object until it expires; an upload goes only to a pending file and must
 * be exactly the declared `encryptedSize`; a download only of a listed file that is not infected.
 */
@Injectable()
export class BlobService {
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
      return { body: await driver.get(row.objectKey, clamped), size: info.size, range: clamped };
    }
    return { body: await driver.get(row.objectKey), size: info.size };
  }
}
