import { Readable } from 'node:stream';
import { Client, type ClientOptions } from 'minio';
import { assertObjectKey } from '../object-key';
import {
  STORAGE_LABELS,
  type ByteRange,
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

const MIN_PART_SIZE = 5 * 1024 * 1024;
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
  readonly client: Client;
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
    this.client = new Client(minioClientOptions(options.endpoint, options));
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
