import { Readable } from 'node:stream';
import { ErrorCode, VaultError } from '@vault/contracts';
import { Client, type ClientOptions } from 'minio';
import { assertObjectKey } from '../object-key';
import {
  partCount,
  STORAGE_LABELS,
  type ByteRange,
  type PartsLayout,
  type SignedUrl,
  type StorageDriver,
  type StoredObjectInfo,
} from '../storage-driver';
import {
  assertContentLength,
  assertMaxBytes,
  assertRange,
  assertTtl,
  objectNotFound,
  objectTooLarge,
} from '../streams';

export interface S3StorageOptions {
  /** URL the services reach the store at, e.g. http://minio:9000 or https://s3.eu-central-1.amazonaws.com. */
  endpoint: string;
  /** URL the browser reaches the store at; presigned URLs are signed for this host (offline). */
  publicEndpoint?: string;
  /** us-east-1 for MinIO, the bucket's region for AWS, 'auto' for Cloudflare R2. */
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** true: http://host/bucket/key (MinIO, R2); false: http://bucket.host/key (AWS). */
  pathStyle: boolean;
  /** Bytes per multipart part for server-side `put` (at least 5 MiB, default 8 MiB): the most one put holds in memory, twice. */
  partSize?: number;
}

/** S3's smallest part (every part of a multipart upload but the last): 5 MiB. */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3's most parts in one multipart upload. */
const S3_MAX_PARTS = 10_000;
const MIN_PART_SIZE = S3_MIN_PART_SIZE;
export const DEFAULT_S3_PART_SIZE = 8 * 1024 * 1024;
const OCTET_STREAM = { 'Content-Type': 'application/octet-stream' };

/** Client options from an endpoint URL (the scheme decides TLS, the port defaults per scheme). */
export function minioClientOptions(
  endpoint: string,
  options: Pick<S3StorageOptions, 'region' | 'accessKey' | 'secretKey' | 'pathStyle'> & { partSize?: number },
): ClientOptions {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`S3 endpoint must be a URL (http://host:port), got ${JSON.stringify(endpoint)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('S3 endpoint must be an http: or https: URL');
  }
  if (url.pathname !== '/' && url.pathname !== '') {
    throw new Error('S3 endpoint must not have a path (the bucket is configured separately)');
  }
  const useSSL = url.protocol === 'https:';
  return {
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    region: options.region,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    pathStyle: options.pathStyle,
    ...(options.partSize ? { partSize: options.partSize } : {}),
  };
}

/** SigV4 dates have whole seconds: signing at one keeps `expiresAt` exact. */
function wholeSecondNow(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

function s3Code(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
}

function isMissing(err: unknown): boolean {
  const code = s3Code(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

function isNoSuchUpload(err: unknown): boolean {
  return s3Code(err) === 'NoSuchUpload';
}

/** `minio`'s client with its ListParts call reachable (the library keeps it protected). */
class S3Client extends Client {
  listUploadParts(bucket: string, key: string, uploadId: string) {
    return this.listParts(bucket, key, uploadId);
  }
}

function assertLayout({ total, partSize }: PartsLayout): void {
  if (!Number.isSafeInteger(total) || total < 1 || !Number.isSafeInteger(partSize)) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, 'A multipart upload needs a size and a part size');
  }
  if (partSize < S3_MIN_PART_SIZE || partCount({ total, partSize }) > S3_MAX_PARTS) {
    throw new VaultError(
      ErrorCode.VALIDATION_FAILED,
      `S3 parts hold at least ${S3_MIN_PART_SIZE} bytes (all but the last), at most ${S3_MAX_PARTS} of them`,
    );
  }
}

/**
 * Objects in an S3-compatible bucket (MinIO, AWS S3, Cloudflare R2) through the `minio`
 * client. Browsers upload and download with presigned URLs (SigV4, signed offline by the
 * library's presigner, for `publicEndpoint` when the browser sees the store under another
 * name than the services do). Server-side writes stream: objects up to one part go in one
 * PUT, larger ones as a multipart upload part by part, so at most two parts are in memory.
 */
export class S3StorageDriver implements StorageDriver {
  readonly type = 's3' as const;
  readonly label = STORAGE_LABELS.s3;
  readonly bucket: string;
  readonly partSize: number;
  /** The client of the services (network calls). */
  readonly client: S3Client;
  /** The client that signs browser URLs (never makes a request: the region is configured). */
  private readonly signer: Client;

  constructor(options: S3StorageOptions) {
    for (const name of ['endpoint', 'region', 'bucket', 'accessKey', 'secretKey'] as const) {
      if (!options[name]) throw new Error(`S3 storage needs ${name}`);
    }
    this.bucket = options.bucket;
    this.partSize = options.partSize ?? DEFAULT_S3_PART_SIZE;
    if (!Number.isSafeInteger(this.partSize) || this.partSize < MIN_PART_SIZE) {
      throw new Error('S3 partSize must be at least 5 MiB');
    }
    this.client = new S3Client(minioClientOptions(options.endpoint, options));
    this.signer = options.publicEndpoint
      ? new Client(minioClientOptions(options.publicEndpoint, options))
      : this.client;
  }

  /** Creates the bucket when missing (MinIO and tests; create production buckets beforehand). */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    await this.client.makeBucket(this.bucket);
  }

  async createUploadUrl(
    key: string,
    opts: { contentLength: number; expiresInSeconds: number },
  ): Promise<SignedUrl> {
    assertObjectKey(key);
    assertContentLength(opts.contentLength);
    assertTtl(opts.expiresInSeconds);
    const signedAt = wholeSecondNow();
    const url = await this.signer.presignedUrl('PUT', this.bucket, key, opts.expiresInSeconds, {}, signedAt);
    return {
      url,
      method: 'PUT',
      expiresAt: new Date(signedAt.getTime() + opts.expiresInSeconds * 1000),
      headers: { ...OCTET_STREAM },
    };
  }

  async createDownloadUrl(key: string, opts: { expiresInSeconds: number }): Promise<SignedUrl> {
    assertObjectKey(key);
    assertTtl(opts.expiresInSeconds);
    const signedAt = wholeSecondNow();
    const url = await this.signer.presignedGetObject(this.bucket, key, opts.expiresInSeconds, {}, signedAt);
    return { url, method: 'GET', expiresAt: new Date(signedAt.getTime() + opts.expiresInSeconds * 1000) };
  }

  async put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredObjectInfo> {
    assertObjectKey(key);
    assertMaxBytes(opts.maxBytes);
    const { bucket, partSize, client } = this;
    // Bytes are copied into one part buffer as they arrive (chunks become garbage at once);
    // a full part goes on the wire while the next one fills: at most two parts are live.
    const bufferSize = Math.max(1, Math.min(partSize, opts.maxBytes));
    let part: Buffer | undefined;
    let filled = 0;
    let total = 0;
    let uploadId: string | undefined;
    let partNumber = 0;
    let inFlight: Promise<void> | undefined;
    const etags: { part: number; etag: string }[] = [];

    const sendPart = async (bytes: Buffer): Promise<void> => {
      uploadId ??= await client.initiateNewMultipartUpload(bucket, key, { ...OCTET_STREAM });
      const number = ++partNumber;
      const res = await client.uploadPart(
        { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: number, headers: {} },
        bytes,
      );
      etags.push({ part: number, etag: res.etag });
    };
    const startPart = async (bytes: Buffer): Promise<void> => {
      if (inFlight) await inFlight;
      inFlight = sendPart(bytes);
      inFlight.catch(() => undefined); // observed when awaited; avoids an unhandled rejection meanwhile
    };

    try {
      for await (const chunk of body as AsyncIterable<Buffer | string>) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        total += bytes.length;
        if (total > opts.maxBytes) throw objectTooLarge(opts.maxBytes);
        let offset = 0;
        while (offset < bytes.length) {
          part ??= Buffer.allocUnsafe(bufferSize);
          const copied = bytes.copy(part, filled, offset);
          filled += copied;
          offset += copied;
          if (filled === partSize) {
            await startPart(part);
            part = undefined;
            filled = 0;
          }
        }
      }
      if (!inFlight) {
        // Up to one part: a single PUT with a known length.
        const bytes = part ? part.subarray(0, filled) : Buffer.alloc(0);
        await client.putObject(bucket, key, bytes, filled, OCTET_STREAM);
        return { size: total };
      }
      if (filled > 0 && part) await startPart(part.subarray(0, filled));
      part = undefined;
      await inFlight;
      await client.completeMultipartUpload(
        bucket,
        key,
        uploadId as string,
        etags.sort((a, b) => a.part - b.part),
      );
      return { size: total };
    } catch (err) {
      body.destroy();
      if (inFlight) await inFlight.catch(() => undefined);
      if (uploadId) {
        // Best effort: an aborted multipart upload leaves no object (and frees its parts).
        await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
      }
      throw err;
    }
  }

  /**
   * A multipart upload the browser sends its parts to directly (`signMultipartParts`). The
   * object appears only when `completeMultipart` has checked the parts.
   */
  async startMultipart(key: string): Promise<string> {
    assertObjectKey(key);
    return this.client.initiateNewMultipartUpload(this.bucket, key, { ...OCTET_STREAM });
  }

  /**
   * Presigned UploadPart URLs (`?partNumber=n&uploadId=…`, signed offline like the PUT of a
   * whole object). Each one writes only that part of that upload, so it is worth nothing once
   * the upload is completed or aborted.
   */
  async signMultipartParts(
    key: string,
    uploadId: string,
    opts: PartsLayout & { expiresInSeconds: number },
  ): Promise<SignedUrl[]> {
    assertObjectKey(key);
    assertLayout(opts);
    assertTtl(opts.expiresInSeconds);
    const signedAt = wholeSecondNow();
    const expiresAt = new Date(signedAt.getTime() + opts.expiresInSeconds * 1000);
    const urls: SignedUrl[] = [];
    for (let part = 1; part <= partCount(opts); part += 1) {
      const url = await this.signer.presignedUrl(
        'PUT',
        this.bucket,
        key,
        opts.expiresInSeconds,
        { partNumber: String(part), uploadId },
        signedAt,
      );
      urls.push({ url, method: 'PUT', expiresAt });
    }
    return urls;
  }

  /**
   * The parts are read from the store (ListParts), never taken from the client: the upload is
   * completed only when it holds exactly parts 1..n of the layout's sizes, with the ETags the
   * store itself listed. A missing, extra or wrong-sized part is UPLOAD_SIZE_MISMATCH and the
   * upload is left as it was (the caller aborts it or lets the client send the part again).
   */
  async completeMultipart(
    key: string,
    uploadId: string,
    layout: PartsLayout,
  ): Promise<StoredObjectInfo | null> {
    assertObjectKey(key);
    assertLayout(layout);
    let listed: { part: number; etag: string; size: number }[];
    try {
      listed = await this.client.listUploadParts(this.bucket, key, uploadId);
    } catch (err) {
      if (isNoSuchUpload(err)) return null;
      throw err;
    }
    const count = partCount(layout);
    const byNumber = new Map(listed.map((p) => [p.part, p]));
    for (let part = 1; part <= count; part += 1) {
      const expected = part < count ? layout.partSize : layout.total - (count - 1) * layout.partSize;
      const found = byNumber.get(part);
      if (!found || found.size !== expected) {
        throw new VaultError(
          ErrorCode.UPLOAD_SIZE_MISMATCH,
          found
            ? `Part ${part} of the upload has ${found.size} bytes; ${expected} were expected`
            : `Part ${part} of ${count} of the upload is missing`,
        );
      }
    }
    if (listed.length !== count) {
      throw new VaultError(ErrorCode.UPLOAD_SIZE_MISMATCH, `The upload has more than ${count} parts`);
    }
    const etags = [...byNumber.values()]
      .sort((a, b) => a.part - b.part)
      .map(({ part, etag }) => ({ part, etag }));
    await this.client.completeMultipartUpload(this.bucket, key, uploadId, etags);
    return { size: layout.total };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertObjectKey(key);
    try {
      await this.client.abortMultipartUpload(this.bucket, key, uploadId);
    } catch (err) {
      if (!isNoSuchUpload(err)) throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertObjectKey(key);
    assertRange(range);
    try {
      return range
        ? await this.client.getPartialObject(this.bucket, key, range.start, range.end - range.start + 1)
        : await this.client.getObject(this.bucket, key);
    } catch (err) {
      if (isMissing(err)) throw objectNotFound();
      // A range that starts beyond the end: nothing to read (the other drivers agree).
      if (s3Code(err) === 'InvalidRange' && range) {
        if ((await this.stat(key)) === null) throw objectNotFound();
        return Readable.from([]);
      }
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    assertObjectKey(key);
    try {
      const info = await this.client.statObject(this.bucket, key);
      return { size: info.size };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }
}
