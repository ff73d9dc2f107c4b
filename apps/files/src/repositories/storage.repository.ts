import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  STORAGE_TYPES,
  VaultError,
  type BlobOperation,
  type RpcReply,
  type StorageType,
} from '@vault/contracts';
import {
  buildBlobUrl,
  createStorageDrivers,
  STORAGE_LABELS,
  type CloudinaryStorageDriver,
  verifyBlobSignature,
  verifyBlobSignatureAnyExpiry,
  type BlobSignatureParams,
  type StorageDriver,
  type VerifiedBlobRequest,
} from '@vault/storage';
import { withTimeout } from '@vault/server-kit';
import type { FilesConfig } from '../config/files.config';
import { FILES_CONFIG } from './connections';
import { PROBE_KEY, probeStorage, shortError, storageSecrets } from './storage-probes';

export type StorageHealth = RpcReply<'files.admin.storage-health'>['storage'][number];

/** A storage that has not answered in this time is down (the admin service waits 2 s for the whole answer). */
const PROBE_TIMEOUT_MS = 1500;

/**
 * The configured storage drivers (a driver that is not configured is not offered) and the
 * signer of the blob URLs, which the files service's own HTTP route serves: the local disk
 * always, and Cloudinary (the browser uploads and downloads through the service, which streams
 * to and from Cloudinary's authenticated, signed endpoints).
 */
@Injectable()
export class StorageRepository {
  private readonly logger = new Logger('Storage');
  private readonly drivers = new Map<StorageType, StorageDriver>();
  readonly defaultType: StorageType;
  private readonly secret: string;
  /** Masked out of the error texts of storage health. */
  private readonly secrets: string[];

  constructor(@Inject(FILES_CONFIG) config: FilesConfig) {
    const { signingSecret, ...options } = config.storage;
    const built = createStorageDrivers(options);
    for (const [type, driver] of built.drivers) this.drivers.set(type, driver);
    this.defaultType = built.defaultType;
    this.secret = signingSecret;
    this.secrets = storageSecrets(options, signingSecret);
  }

  configured(): Array<{ type: StorageType; label: string }> {
    return [...this.drivers.values()].map((d) => ({ type: d.type, label: d.label }));
  }

  /** Every kind the product supports, in STORAGE_TYPES order, with whether a driver is configured. */
  kinds(): Array<{ type: StorageType; label: string; configured: boolean }> {
    return STORAGE_TYPES.map((type) => ({
      type,
      label: this.drivers.get(type)?.label ?? STORAGE_LABELS[type],
      configured: this.drivers.has(type),
    }));
  }

  /**
   * The driver of a configured type, each of its calls to the store through `call`: a store that
   * fails answers STORAGE_UNAVAILABLE whichever call site used it.
   */
  driver(type: StorageType): StorageDriver {
    return this.translating(this.configuredDriver(type));
  }

  private configuredDriver(type: StorageType): StorageDriver {
    const driver = this.drivers.get(type);
    if (!driver)
      throw new VaultError(ErrorCode.STORAGE_NOT_CONFIGURED, `Storage type ${type} is not configured`);
    return driver;
  }

  /**
   * Each method of the driver through `call`, named as its warning names it; an optional method
   * stays undefined where the driver lacks it (callers check for it).
   */
  private translating(driver: StorageDriver): StorageDriver {
    const { appendPart, startMultipart, signMultipartParts, completeMultipart, abortMultipart, sendChunk } =
      driver;
    return {
      type: driver.type,
      label: driver.label,
      createUploadUrl: (key, opts) => this.call('upload URL', () => driver.createUploadUrl(key, opts)),
      createDownloadUrl: (key, opts) => this.call('download URL', () => driver.createDownloadUrl(key, opts)),
      put: (key, body, opts) => this.call('write', () => driver.put(key, body, opts)),
      get: (key, range) => this.call('read', () => driver.get(key, range)),
      stat: (key) => this.call('stat', () => driver.stat(key)),
      delete: (key) => this.call('delete', () => driver.delete(key)),
      appendPart:
        appendPart &&
        ((key, body, part) => this.call('part write', () => appendPart.call(driver, key, body, part))),
      startMultipart:
        startMultipart && ((key) => this.call('multipart start', () => startMultipart.call(driver, key))),
      signMultipartParts:
        signMultipartParts &&
        ((key, uploadId, opts) =>
          this.call('part URLs', () => signMultipartParts.call(driver, key, uploadId, opts))),
      completeMultipart:
        completeMultipart &&
        ((key, uploadId, layout) =>
          this.call('multipart complete', () => completeMultipart.call(driver, key, uploadId, layout))),
      abortMultipart:
        abortMultipart &&
        ((key, uploadId) => this.call('multipart abort', () => abortMultipart.call(driver, key, uploadId))),
      sendChunk:
        sendChunk &&
        ((key, body, chunk) => this.call('chunk upload', () => sendChunk.call(driver, key, body, chunk))),
    };
  }

  has(type: StorageType): boolean {
    return this.drivers.has(type);
  }

  cloudinary(): CloudinaryStorageDriver {
    return this.configuredDriver('cloudinary') as CloudinaryStorageDriver;
  }

  /** Whether the browser reaches objects of this type through the service's blob route. */
  usesBlobRoute(type: StorageType): boolean {
    return type !== 's3';
  }

  signBlobUrl(
    key: string,
    op: BlobOperation,
    expiresInSeconds: number,
    len?: number,
  ): { url: string; expiresAt: Date } {
    const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const request = op === 'put' ? { key, op, exp, len: len ?? 0 } : { key, op, exp };
    return { url: buildBlobUrl(request, this.secret), expiresAt: new Date(exp * 1000) };
  }

  verifyBlobUrl(params: BlobSignatureParams): VerifiedBlobRequest {
    return verifyBlobSignature(params, this.secret);
  }

  /** The signature checked, the expiry only reported (continuation parts of an upload). */
  verifyBlobUrlAnyExpiry(params: BlobSignatureParams): VerifiedBlobRequest & { expired: boolean } {
    const verified = verifyBlobSignatureAnyExpiry(params, this.secret);
    return { ...verified, expired: verified.exp * 1000 <= Date.now() };
  }

  /**
   * Whether uploads to this storage may come in parts through the blob route (`Content-Range`):
   * its driver stores parts itself (`appendPart`, the local disk) or passes them on as chunks of
   * the store's own chunked upload (`sendChunk`, Cloudinary).
   */
  takesParts(type: StorageType): boolean {
    const driver = this.drivers.get(type);
    return driver?.appendPart !== undefined || driver?.sendChunk !== undefined;
  }

  /**
   * A call to the store: a failure of the store itself (the disk refusing a write, S3 or
   * Cloudinary not answering or answering 5xx) becomes `STORAGE_UNAVAILABLE` (503, "nothing was
   * stored, try again"), logged in one line without secrets; a `VaultError` the driver chose
   * (an object too large, a part out of order) passes unchanged.
   */
  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof VaultError) throw error;
      this.logger.warn(`Storage ${operation} failed: ${shortError(error, this.secrets)}`);
      throw new VaultError(ErrorCode.STORAGE_UNAVAILABLE);
    }
  }

  /**
   * Removes what a file row holds in its storage: an unfinished S3 multipart upload (aborted, its
   * parts freed) and the object (with a local partial). A Cloudinary chunked upload has no abort
   * call: Cloudinary drops unfinished chunks itself (docs/api.md "Files").
   */
  async discard(row: {
    storageType: StorageType;
    objectKey: string;
    uploadId: string | null;
  }): Promise<void> {
    if (row.uploadId !== null) await this.abortMultipart(row, row.uploadId);
    await this.driver(row.storageType).delete(row.objectKey);
  }

  /** Aborts an S3 multipart upload, its parts freed; a store without multipart uploads has none. */
  async abortMultipart(
    row: { storageType: StorageType; objectKey: string },
    uploadId: string,
  ): Promise<void> {
    await this.driver(row.storageType).abortMultipart?.(row.objectKey, uploadId);
  }

  /**
   * For the health check: the default driver answers a stat of a key that does not exist. The
   * driver itself, not `driver()`: a failure is the check's answer, not a 503 to log.
   */
  async ping(): Promise<void> {
    await this.configuredDriver(this.defaultType).stat(PROBE_KEY);
  }

  /** The admin console's storage health: every configured driver probed (storage-probes), in parallel. */
  health(): Promise<StorageHealth[]> {
    return Promise.all(
      [...this.drivers.values()].map(async (driver): Promise<StorageHealth> => {
        const entry = { driver: driver.type, default: driver.type === this.defaultType };
        try {
          await withTimeout(probeStorage(driver), PROBE_TIMEOUT_MS);
          return { ...entry, status: 'up' };
        } catch (error) {
          return { ...entry, status: 'down', error: shortError(error, this.secrets) };
        }
      }),
    );
  }
}
