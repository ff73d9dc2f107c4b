import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseObjectKey } from '../object-key';
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
  ByteLimit,
  objectNotFound,
} from '../streams';
import { blobSecretBytes, buildBlobUrl, DEFAULT_BLOB_URL_BASE } from './blob-signature';

export interface LocalStorageOptions {
  /** Folder that holds `<owner>/<fileId>`; created when missing. */
  root: string;
  /** HMAC key of the blob URLs (at least 32 bytes); the files service's blob route verifies with it. */
  signingSecret: Buffer | string;
  /** Path of the blob route, default '/api/files/blob'. URLs are relative to the API origin. */
  urlBase?: string;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Objects as files under `root/<owner>/<fileId>`. Writes stream into a temporary file in
 * the same folder and are renamed into place only when complete, so a failed or oversized
 * write leaves nothing and an existing object is never half-overwritten. The browser
 * reaches the objects through the files service's blob route with the signed relative URLs
 * made here.
 */
export class LocalStorageDriver implements StorageDriver {
  readonly type = 'local' as const;
  readonly label = STORAGE_LABELS.local;
  readonly root: string;
  readonly urlBase: string;
  private readonly secret: Buffer;
  private readonly now: () => number;

  constructor(options: LocalStorageOptions) {
    if (!options.root) throw new Error('Local storage needs a root folder');
    this.root = resolve(options.root);
    this.secret = blobSecretBytes(options.signingSecret);
    this.urlBase = (options.urlBase ?? DEFAULT_BLOB_URL_BASE).replace(/\/+$/, '');
    if (!this.urlBase.startsWith('/') && !/^https?:\/\//.test(this.urlBase)) {
      throw new Error('urlBase must be a path (/api/files/blob) or an http(s) URL');
    }
    this.now = options.now ?? Date.now;
  }

  /** Absolute path of a key's file (the key is validated first, so it stays under root). */
  pathOf(key: string): string {
    const { ownerId, fileId, thumb } = parseObjectKey(key);
    const path = join(this.root, ownerId, thumb ? `${fileId}.thumb` : fileId);
    if (!isAbsolute(path) || !path.startsWith(this.root + '/'))
      throw new Error('Object path escapes the root');
    return path;
  }

  private sign(key: string, op: 'put' | 'get', expiresInSeconds: number, len?: number): SignedUrl {
    parseObjectKey(key);
    assertTtl(expiresInSeconds);
    const exp = Math.floor(this.now() / 1000) + expiresInSeconds;
    const url = buildBlobUrl(
      { key, op, exp, ...(len === undefined ? {} : { len }) },
      this.secret,
      this.urlBase,
    );
    return { url, method: op === 'put' ? 'PUT' : 'GET', expiresAt: new Date(exp * 1000) };
  }

  async createUploadUrl(
    key: string,
    opts: { contentLength: number; expiresInSeconds: number },
  ): Promise<SignedUrl> {
    assertContentLength(opts.contentLength);
    return this.sign(key, 'put', opts.expiresInSeconds, opts.contentLength);
  }

  async createDownloadUrl(key: string, opts: { expiresInSeconds: number }): Promise<SignedUrl> {
    return this.sign(key, 'get', opts.expiresInSeconds);
  }

  async put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredObjectInfo> {
    const path = this.pathOf(key);
    assertMaxBytes(opts.maxBytes);
    const folder = join(path, '..');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // A leading dot can never be a key's name, so a temporary file is never mistaken for an object.
    const temp = join(folder, `.${randomBytes(8).toString('hex')}.partial`);
    const limit = new ByteLimit(opts.maxBytes);
    const file = createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true });
    try {
      await pipeline(body, limit, file);
      await rename(temp, path);
    } catch (err) {
      body.destroy();
      // The file may still be opening when the source fails: remove it once it is closed.
      if (!file.closed) await once(file, 'close').catch(() => undefined);
      await rm(temp, { force: true });
      throw err;
    }
    return { size: limit.bytes };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    assertRange(range);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isNotFound(err)) throw objectNotFound();
      throw err;
    }
    // The open handle keeps reading the same file even if a newer version is renamed over it.
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      return info.isFile() ? { size: info.size } : null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      await unlink(path);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
