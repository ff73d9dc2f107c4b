import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ErrorCode, VaultError } from '@vault/contracts';
import { assertObjectKey } from '../object-key';
import {
  STORAGE_LABELS,
  type ByteRange,
  type SignedUrl,
  type StorageDriver,
  type StoredObjectInfo,
  type UploadChunk,
  type UploadChunkResult,
} from '../storage-driver';
import { assertMaxBytes, assertRange, assertTtl, ByteLimit, ByteWindow, objectNotFound } from '../streams';
import {
  loadCloudinarySdk,
  type CloudinaryApiError,
  type CloudinarySdk,
  type CloudinaryUploadResult,
} from './cloudinary-sdk';

export interface CloudinaryStorageOptions {
  cloudName: string;
  apiKey: string;
  apiSecret: string;
  /** Folder prefix of every public id (default 'vault'; '' for none). */
  folder?: string;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

/** Signed parameters for a browser's multipart POST straight to Cloudinary (plus the `file` field). */
export interface CloudinaryDirectUpload {
  uploadUrl: string;
  fields: Record<string, string>;
  expiresAt: Date;
}

/** Cloudinary refuses a signed request whose `timestamp` is more than an hour old. */
export const CLOUDINARY_SIGNATURE_TTL_SECONDS = 3600;
const DEFAULT_FOLDER = 'vault';
const FOLDER_PATTERN = /^[0-9A-Za-z_-]+(\/[0-9A-Za-z_-]+)*$/;
/**
 * Cloudinary's chunked upload: every chunk but the last must be larger than 5 MB
 * (support.cloudinary.com "Guidelines for self implementing chunked upload"); 5 MiB satisfies
 * either reading of "MB".
 */
export const CLOUDINARY_MIN_CHUNK_BYTES = 5 * 1024 * 1024;
/** Internal download URLs (server-side `get`) live this long. */
const GET_URL_TTL_SECONDS = 300;

const RAW_AUTHENTICATED = { resource_type: 'raw', type: 'authenticated' } as const;

/** A Cloudinary failure as an Error that carries only the status and message (SDK errors hold the credentials). */
export class CloudinaryRequestError extends Error {
  constructor(
    readonly operation: string,
    readonly httpCode: number | undefined,
    detail: string | undefined,
  ) {
    super(`Cloudinary ${operation} failed${httpCode ? ` (HTTP ${httpCode})` : ''}: ${detail ?? 'no detail'}`);
    this.name = 'CloudinaryRequestError';
  }
}

function apiError(err: unknown): CloudinaryApiError {
  if (typeof err !== 'object' || err === null) return { message: String(err) };
  const inner = (err as { error?: unknown }).error;
  const source = (typeof inner === 'object' && inner !== null ? inner : err) as CloudinaryApiError;
  return {
    message: typeof source.message === 'string' ? source.message : undefined,
    http_code: typeof source.http_code === 'number' ? source.http_code : undefined,
  };
}

/**
 * Objects as Cloudinary raw assets of delivery type `authenticated`: never public, reachable
 * only through signed, expiring download URLs (the Download API) and the signed Upload and
 * Admin APIs. Public id: `${folder}/${owner}/${fileId}`. The SDK is loaded on first use
 * (see cloudinary-sdk.ts for pointing it at a local test server).
 */
export class CloudinaryStorageDriver implements StorageDriver {
  readonly type = 'cloudinary' as const;
  readonly label = STORAGE_LABELS.cloudinary;
  readonly folder: string;
  private readonly credentials: { cloud_name: string; api_key: string; api_secret: string };
  private readonly now: () => number;

  constructor(private readonly options: CloudinaryStorageOptions) {
    for (const name of ['cloudName', 'apiKey', 'apiSecret'] as const) {
      if (!options[name]) throw new Error(`Cloudinary storage needs ${name}`);
    }
    this.folder = options.folder ?? DEFAULT_FOLDER;
    if (this.folder !== '' && !FOLDER_PATTERN.test(this.folder)) {
      throw new Error('Cloudinary folder may hold letters, digits, _ and - in /-separated parts');
    }
    this.credentials = {
      cloud_name: options.cloudName,
      api_key: options.apiKey,
      api_secret: options.apiSecret,
    };
    this.now = options.now ?? Date.now;
  }

  private get sdk(): CloudinarySdk {
    return loadCloudinarySdk();
  }

  /** The public id of a key (validated first). */
  publicIdOf(key: string): string {
    assertObjectKey(key);
    return this.folder ? `${this.folder}/${key}` : key;
  }

  /**
   * Cloudinary takes uploads as a multipart POST, not a PUT of the body: browsers upload with
   * `createDirectUpload` (docs/api.md "Files": `POST /api/files/cloudinary/upload-url`).
   */
  async createUploadUrl(): Promise<SignedUrl> {
    throw new Error('Cloudinary uploads are multipart POSTs: use createDirectUpload');
  }

  /**
   * Signed fields for one browser upload of one object: the browser POSTs them with the
   * encrypted bytes as `file` (multipart) to `uploadUrl`. The signature covers the public id,
   * the type (authenticated) and overwrite=0, so the browser can change none of them.
   * Cloudinary honours a signature for an hour after its `timestamp`; the timestamp is set
   * back so that the hour ends `expiresInSeconds` from now (at most an hour).
   */
  createDirectUpload(key: string, expiresInSeconds: number): CloudinaryDirectUpload {
    const publicId = this.publicIdOf(key);
    assertTtl(expiresInSeconds);
    const ttl = Math.min(expiresInSeconds, CLOUDINARY_SIGNATURE_TTL_SECONDS);
    const nowSeconds = Math.floor(this.now() / 1000);
    const timestamp = nowSeconds - (CLOUDINARY_SIGNATURE_TTL_SECONDS - ttl);
    const params = { public_id: publicId, timestamp, type: 'authenticated', overwrite: 0 };
    const signature = this.sdk.utils.api_sign_request(params, this.options.apiSecret);
    return {
      uploadUrl: this.sdk.utils.api_url('upload', {
        resource_type: 'raw',
        cloud_name: this.options.cloudName,
      }),
      fields: {
        public_id: publicId,
        timestamp: String(timestamp),
        type: 'authenticated',
        overwrite: '0',
        api_key: this.options.apiKey,
        signature,
      },
      expiresAt: new Date((nowSeconds + ttl) * 1000),
    };
  }

  async createDownloadUrl(key: string, opts: { expiresInSeconds: number }): Promise<SignedUrl> {
    const publicId = this.publicIdOf(key);
    assertTtl(opts.expiresInSeconds);
    const expiresAt = Math.floor(this.now() / 1000) + opts.expiresInSeconds;
    const url = this.sdk.utils.private_download_url(publicId, '', {
      ...RAW_AUTHENTICATED,
      ...this.credentials,
      expires_at: expiresAt,
    });
    return { url, method: 'GET', expiresAt: new Date(expiresAt * 1000) };
  }

  /**
   * Streams the body to the Upload API (`upload_stream`, signed, overwrite=0). Beyond
   * `maxBytes` the request is cut off before its closing boundary, so Cloudinary stores
   * nothing. A public id that already exists is refused (CONFLICT) and left as it was.
   */
  async put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredObjectInfo> {
    assertMaxBytes(opts.maxBytes);
    const result = await this.upload(key, body, { maxBytes: opts.maxBytes });
    return { size: Number(result.bytes) };
  }

  /**
   * One chunk of Cloudinary's chunked upload (the SDK's `upload_chunked_stream` protocol, one
   * chunk per call, streamed instead of buffered): the same signed parameters as `put`, plus
   * `X-Unique-Upload-Id: uploadId` and `Content-Range: bytes first-last/total`. The body must be
   * exactly the chunk's length: longer or shorter, the request is cut off before its closing
   * boundary, so Cloudinary keeps nothing of it. The answer to the last chunk is the asset.
   */
  async sendChunk(key: string, body: Readable, chunk: UploadChunk): Promise<UploadChunkResult> {
    const { first, last, total, uploadId } = chunk;
    if (
      ![first, last, total].every(Number.isSafeInteger) ||
      first < 0 ||
      first > last ||
      last >= total ||
      !/^[0-9A-Za-z_-]{8,64}$/.test(uploadId)
    ) {
      throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Invalid chunk');
    }
    const complete = last + 1 === total;
    if (!complete && last - first + 1 < CLOUDINARY_MIN_CHUNK_BYTES) {
      throw new VaultError(
        ErrorCode.VALIDATION_FAILED,
        `A chunk other than the last must hold at least ${CLOUDINARY_MIN_CHUNK_BYTES} bytes`,
      );
    }
    const result = await this.upload(key, body, {
      maxBytes: last - first + 1,
      exact: true,
      headers: { content_range: `bytes ${first}-${last}/${total}`, x_unique_upload_id: uploadId },
    });
    if (result.done === false) {
      if (complete)
        throw new CloudinaryRequestError('upload', undefined, 'the last chunk left the upload open');
      return { complete: false };
    }
    if (!complete)
      throw new CloudinaryRequestError('upload', undefined, 'a chunk before the last ended the upload');
    if (Number(result.bytes) !== total) {
      throw new CloudinaryRequestError(
        'upload',
        undefined,
        `the asset has ${result.bytes} bytes, not ${total}`,
      );
    }
    return { complete: true };
  }

  /**
   * `upload_stream` fed through a byte counter: beyond `maxBytes` (or, `exact`, short of it at
   * the end) the request is cut off through its socket (an agent of our own: the SDK does not
   * expose the request) before the closing multipart boundary, so Cloudinary keeps nothing.
   */
  private upload(
    key: string,
    body: Readable,
    opts: { maxBytes: number; exact?: boolean; headers?: Record<string, string> },
  ): Promise<CloudinaryUploadResult> {
    const publicId = this.publicIdOf(key);
    const sdk = this.sdk;
    const secure = !String(sdk.config().upload_prefix ?? '').startsWith('http:');
    const agent = secure ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });

    return new Promise<CloudinaryUploadResult>((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | null, result?: CloudinaryUploadResult) => {
        if (settled) return;
        settled = true;
        agent.destroy();
        if (err) {
          body.destroy();
          upload.destroy();
          reject(err);
        } else {
          resolve(result as CloudinaryUploadResult);
        }
      };
      const upload = sdk.uploader.upload_stream(
        {
          ...RAW_AUTHENTICATED,
          ...this.credentials,
          ...opts.headers,
          public_id: publicId,
          overwrite: false,
          agent,
        },
        (error, result) => {
          if (error || !result) {
            const { message, http_code } = apiError(error);
            return finish(new CloudinaryRequestError('upload', http_code, message));
          }
          if (result.existing === true) {
            return finish(new VaultError(ErrorCode.CONFLICT, 'A stored object with this key already exists'));
          }
          finish(null, result);
        },
      );
      const limit = new ByteLimit(
        opts.maxBytes,
        () => agent.destroy(),
        opts.exact ? opts.maxBytes : undefined,
      );
      pipeline(body, limit, upload).catch((err: Error) => finish(err));
    });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertRange(range);
    const { url } = await this.createDownloadUrl(key, { expiresInSeconds: GET_URL_TTL_SECONDS });
    const res = await fetch(url, range ? { headers: { Range: `bytes=${range.start}-${range.end}` } } : {});
    if (res.status === 404) {
      await res.body?.cancel();
      throw objectNotFound();
    }
    if (res.status === 416 && range) {
      await res.body?.cancel();
      if ((await this.stat(key)) === null) throw objectNotFound();
      return Readable.from([]);
    }
    if (!res.ok) {
      const detail = (await res.text()).slice(0, 200);
      throw new CloudinaryRequestError('download', res.status, detail);
    }
    const stream = res.body
      ? Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>)
      : Readable.from([]);
    if (range && res.status !== 206) {
      // The server sent the whole object: cut the window out here.
      const window = new ByteWindow(range.start, range.end - range.start + 1);
      pipeline(stream, window).catch(() => undefined);
      return window;
    }
    return stream;
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    const publicId = this.publicIdOf(key);
    try {
      const resource = await this.sdk.api.resource(publicId, { ...RAW_AUTHENTICATED, ...this.credentials });
      return { size: Number(resource.bytes) };
    } catch (err) {
      const { message, http_code } = apiError(err);
      if (http_code === 404) return null;
      throw new CloudinaryRequestError('resource lookup', http_code, message);
    }
  }

  async delete(key: string): Promise<void> {
    const publicId = this.publicIdOf(key);
    let result: { result?: string };
    try {
      result = await this.sdk.uploader.destroy(publicId, {
        ...RAW_AUTHENTICATED,
        ...this.credentials,
        invalidate: true,
      });
    } catch (err) {
      const { message, http_code } = apiError(err);
      throw new CloudinaryRequestError('destroy', http_code, message);
    }
    if (result.result !== 'ok' && result.result !== 'not found') {
      throw new CloudinaryRequestError('destroy', undefined, result.result);
    }
  }
}
