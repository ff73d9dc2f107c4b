import {
  expectedEncryptedSize,
  FILE_CHUNK_SIZE,
  FILES_PATTERNS,
  type CreateUploadBody,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileDto,
  type FileListResponse,
  type FileResponse,
  type StorageType,
} from '@vault/contracts';
import {
  freePort,
  sealedValue,
  startRpcTestApp,
  type RpcTestApp,
  type TestUser,
} from '@vault/server-kit/testing';
import {
  startCloudinaryTestServer,
  startS3rver,
  type CloudinaryTestServer,
  type S3rverHandle,
} from '@vault/storage/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFilesService, type RunningFilesService } from '../../../src/bootstrap';
import { loadFilesConfig, type FilesConfig } from '../../../src/config/files.config';
import { filesDatabaseConfig } from '../../../src/repositories/connections';

export { freePort, sealedValue, testAppPerFile, type TestUser } from '@vault/server-kit/testing';

/**
 * The real files service (server-kit's startRpcTestApp, plus the blob route on a free HTTP port)
 * with a temporary local storage folder, an S3 server (s3rver, signatures checked) and a
 * Cloudinary-compatible server that checks the SDK's signatures.
 */
export interface FilesTestApp extends RpcTestApp<FilesConfig, RunningFilesService> {
  s3: S3rverHandle;
  cloudinary: CloudinaryTestServer;
  localRoot: string;
  /** http://127.0.0.1:PORT of the blob route: relative upload/download URLs resolve against it. */
  blobBase: string;
  /** Absolute URL of an upload/download URL (the blob route's are relative to the API origin). */
  absolute(url: string): string;
  /** PUTs bytes on an upload URL, as the browser does. */
  put(url: string, bytes: Buffer): Promise<Response>;
  /** upload-url, then random bytes of the encrypted size PUT on the URL it answers (not completed). */
  startUpload(
    user: TestUser,
    body: CreateUploadBody,
  ): Promise<{ started: CreateUploadResponse; bytes: Buffer }>;
  /** upload-url only: the answer, and random bytes of the encrypted size to send (nothing sent). */
  begin(
    user: TestUser,
    storageType: StorageType,
    size: number,
  ): Promise<{ body: CreateUploadBody; started: CreateUploadResponse; bytes: Buffer }>;
  /** The stored bytes of a file, through its download URL (expects 200). */
  downloaded(user: TestUser, fileId: string): Promise<Buffer>;
  /** The ids of the user's listed (active) files. */
  listed(user: TestUser): Promise<string[]>;
  /** upload-url → PUT the bytes → upload-complete: a stored file (its scan queued). */
  upload(
    user: TestUser,
    storageType: StorageType,
    size?: number,
  ): Promise<{ body: CreateUploadBody; bytes: Buffer; started: CreateUploadResponse; file: FileDto }>;
}

export async function startFilesTestApp(label: string): Promise<FilesTestApp> {
  const s3 = await startS3rver();
  const cloudinary = await startCloudinaryTestServer({
    cloudName: 'vault-test',
    apiKey: '1234567890',
    apiSecret: 'cloudinary-test-secret',
  });
  // The SDK reads upload_prefix from CLOUDINARY_URL at first import (the driver imports it lazily).
  process.env.CLOUDINARY_URL = cloudinary.cloudinaryUrl;
  const localRoot = await mkdtemp(join(tmpdir(), 'vault-files-'));
  const httpPort = await freePort();
  const t = await startRpcTestApp({
    service: 'files',
    label,
    env: {
      FILES_HTTP_HOST: '127.0.0.1',
      FILES_HTTP_PORT: String(httpPort),
      STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
      STORAGE_LOCAL_ROOT: localRoot,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_REGION: s3.region,
      CLOUDINARY_URL: cloudinary.cloudinaryUrl,
    },
    loadConfig: loadFilesConfig,
    databaseConfig: (config) => filesDatabaseConfig(config.database),
    start: startFilesService,
    stop: (service) => service.close(),
  });
  const blobBase = `http://127.0.0.1:${httpPort}`;
  const absolute = (url: string) => (url.startsWith('/') ? `${blobBase}${url}` : url);
  const put = (url: string, bytes: Buffer) =>
    fetch(absolute(url), {
      method: 'PUT',
      body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      headers: { 'content-type': 'application/octet-stream' },
    });
  const startUpload: FilesTestApp['startUpload'] = async (user, body) => {
    const started = await user.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    const bytes = randomBytes(body.encryptedSize);
    const res = await put(started.uploadUrl, bytes);
    expect(res.status).toBeLessThan(300);
    return { started, bytes };
  };
  return {
    ...t,
    s3,
    cloudinary,
    localRoot,
    blobBase,
    absolute,
    put,
    startUpload,
    async begin(user, storageType, size) {
      const body = uploadBody(size, storageType);
      const started = await user.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
      return { body, started, bytes: randomBytes(body.encryptedSize) };
    },
    async downloaded(user, fileId) {
      const link = await user.call<DownloadUrlResponse>(FILES_PATTERNS.downloadUrl, {
        id: fileId,
        purpose: 'download',
      });
      const res = await fetch(absolute(link.downloadUrl));
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    },
    async listed(user) {
      return (await user.call<FileListResponse>(FILES_PATTERNS.list, {})).files.map((f) => f.id);
    },
    async upload(user, storageType, size = 70_000) {
      const body = uploadBody(size, storageType);
      const { started, bytes } = await startUpload(user, body);
      const done = await user.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      return { body, bytes, started, file: done.file };
    },
    async close() {
      await t.close();
      await s3.close();
      await cloudinary.close();
      await rm(localRoot, { recursive: true, force: true });
    },
  };
}

/** An upload body for `size` plaintext bytes (the service never sees plaintext: sizes are what it checks). */
export function uploadBody(
  size: number,
  storageType: StorageType,
  overrides: Partial<CreateUploadBody> = {},
): CreateUploadBody {
  return {
    fileId: randomUUID(),
    size,
    encryptedSize: expectedEncryptedSize(size, FILE_CHUNK_SIZE),
    chunkSize: FILE_CHUNK_SIZE,
    iv: randomBytes(12).toString('hex'),
    wrappedKey: sealedValue(32),
    encryptedName: sealedValue(12),
    encryptedMimeType: sealedValue(10),
    encryptedTags: sealedValue(16),
    storageType,
    ...overrides,
  };
}
