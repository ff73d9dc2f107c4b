import { ClientProxyFactory, type ClientProxy } from '@nestjs/microservices';
import {
  expectedEncryptedSize,
  FILE_CHUNK_SIZE,
  VaultError,
  type CreateUploadBody,
  type RpcAuth,
  type RpcContext,
  type StorageType,
} from '@vault/contracts';
import { PinoNestLogger, redisKeys, rpcCall, rpcClientOptions, runMigrations } from '@vault/server-kit';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
  freePort,
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
import { Writable } from 'node:stream';
import { Client } from 'pg';
import pino from 'pino';
import { startFilesService, type RunningFilesService } from '../../../src/bootstrap';
import { loadFilesConfig, type FilesConfig } from '../../../src/config/files.config';
import { filesDatabaseConfig } from '../../../src/repositories/connections';

/**
 * The real files service (RPC on a free TCP port, blob route on a free HTTP port) against a fresh
 * migrated database, a private Redis prefix, a temporary local storage folder, an S3 server
 * (s3rver, signatures checked) and a Cloudinary-compatible server that checks the SDK's
 * signatures. Sessions are made in Redis the way auth makes them.
 */
export interface FilesTestApp {
  config: FilesConfig;
  service: RunningFilesService;
  db: TestDatabase;
  redis: TestRedis;
  pg: Client;
  s3: S3rverHandle;
  cloudinary: CloudinaryTestServer;
  localRoot: string;
  /** http://127.0.0.1:PORT of the blob route: relative upload/download URLs resolve against it. */
  blobBase: string;
  logs: string[];
  user(): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestUser {
  auth: RpcAuth;
  call<T>(pattern: string, body?: unknown): Promise<T>;
  fail(pattern: string, body?: unknown): Promise<VaultError>;
}

export { freePort };

let requestCounter = 0;
const context = (ctx: Partial<RpcContext> = {}): RpcContext => ({
  requestId: `req-${++requestCounter}`,
  ip: '198.51.100.1',
  userAgent: 'jest',
  ...ctx,
});

export async function startFilesTestApp(label: string): Promise<FilesTestApp> {
  const db = await createTestDatabase(`files${label}`);
  const redis = await createTestRedis(`files-${label}`);
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
  const config = loadFilesConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    FILES_RPC_HOST: '127.0.0.1',
    FILES_RPC_PORT: String(await freePort()),
    FILES_HTTP_HOST: '127.0.0.1',
    FILES_HTTP_PORT: String(httpPort),
    DB_POOL_SIZE: '4',
    STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
    STORAGE_LOCAL_ROOT: localRoot,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_REGION: s3.region,
    CLOUDINARY_URL: cloudinary.cloudinaryUrl,
  });
  await runMigrations(filesDatabaseConfig(config.database));

  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug', base: { service: 'files' } }, sink);
  const service = await startFilesService(config, new PinoNestLogger(logger), logger);

  const client: ClientProxy = ClientProxyFactory.create(rpcClientOptions('files', config.rpc));
  await client.connect();
  const pg = new Client({ connectionString: db.url });
  await pg.connect();

  const call = <T>(pattern: string, body: unknown, ctx: Partial<RpcContext>): Promise<T> =>
    rpcCall<T, unknown>(client, pattern, { ctx: context(ctx), body });

  return {
    config,
    service,
    db,
    redis,
    pg,
    s3,
    cloudinary,
    localRoot,
    blobBase: `http://127.0.0.1:${httpPort}`,
    logs,
    async user() {
      const auth: RpcAuth = { userId: randomUUID(), sessionId: randomUUID(), role: 'user' };
      await redis.client.hset(redisKeys.session(auth.sessionId), 'userId', auth.userId);
      return {
        auth,
        call: <T>(pattern: string, body?: unknown) => call<T>(pattern, body, { auth }),
        async fail(pattern: string, body?: unknown) {
          try {
            await call(pattern, body, { auth });
          } catch (error) {
            if (error instanceof VaultError) return error;
            throw error;
          }
          throw new Error(`${pattern} succeeded but a failure was expected`);
        },
      };
    },
    async close() {
      client.close();
      await service.close();
      await pg.end();
      await redis.cleanup();
      await db.drop();
      await s3.close();
      await cloudinary.close();
      await rm(localRoot, { recursive: true, force: true });
    },
  };
}

/** A sealed value as the protocol makes it: `hex(ct||tag):hex(iv)`, random bytes. */
export function sealedValue(plaintextBytes = 24): string {
  return `${randomBytes(plaintextBytes + 16).toString('hex')}:${randomBytes(12).toString('hex')}`;
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
