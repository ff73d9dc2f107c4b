// A private, throw-away stack for the API end-to-end tests and benchmarks: its own
// database, Redis prefix, ports, keys and log folder, all removed afterwards.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { ensureScanner, localEnv, prepare, startServices, waitHealthy } from './stack.mjs';
import { ROOT, freePort, log, reservePorts } from './util.mjs';

/** Drops the database a URL names (connecting to `postgres`), its sessions ended. */
export async function dropDatabase(databaseUrl) {
  const { default: pg } = await import('pg');
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
}

/** Deletes every Redis key under `prefix`. */
export async function dropRedisPrefix(redisUrl, prefix) {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function startStorageServers(env) {
  const { startS3rver, startCloudinaryTestServer } = await import('@vault/storage/testing');
  const s3 = await startS3rver();
  const cloudinary = await startCloudinaryTestServer({
    cloudName: 'vault-e2e',
    apiKey: randomBytes(6).toString('hex'),
    apiSecret: randomBytes(16).toString('hex'),
  });
  Object.assign(env, {
    S3_ENDPOINT: s3.endpoint,
    S3_PUBLIC_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_REGION: s3.region,
    CLOUDINARY_URL: cloudinary.cloudinaryUrl,
  });
  return {
    async close() {
      await Promise.allSettled([s3.close(), cloudinary.close()]);
    },
  };
}

/**
 * Runs `fn(ctx)` against a fresh stack. `ctx` has baseUrl, env, logDir, crashed() (the first
 * service that exited unexpectedly, if any: the runner restarts it, but the run has seen a crash),
 * stopService(name) / startService(name) and `stack` (startServices' handle: pids, restarts,
 * onCrash). `stackOptions` go to startServices (`restart`, `policy`, `services`, `say`).
 * Everything is stopped and removed even when `fn` throws, but the logs of a run that failed.
 */
export async function withEphemeralStack(label, overrides, fn, { keepLogs = true, stackOptions = {} } = {}) {
  const id = `${label}_${randomBytes(4).toString('hex')}`;
  const dataDir = join(ROOT, '.data', label);
  const logDir = join(dataDir, `logs-${id}`);
  // Held until the services start, so that the storage stand-ins and clamd cannot take one.
  const reserved = await reservePorts(6);
  const [gatewayPort, authPort, notesPort, filesPort, filesHttpPort, adminPort] = reserved.ports;
  const baseDb = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault';
  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/vault_${id}`;
  const env = localEnv({
    VAULT_DATA_DIR: dataDir,
    DATABASE_URL: dbUrl.toString(),
    REDIS_PREFIX: `vault-${id}:`,
    GATEWAY_PORT: String(gatewayPort),
    AUTH_RPC_PORT: String(authPort),
    NOTES_RPC_PORT: String(notesPort),
    FILES_RPC_PORT: String(filesPort),
    FILES_HTTP_PORT: String(filesHttpPort),
    ADMIN_RPC_PORT: String(adminPort),
    STORAGE_LOCAL_ROOT: join(dataDir, `files-${id}`),
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    ...overrides,
  });
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  await prepare(env, { build: process.env.VAULT_SKIP_BUILD !== '1' });
  // Every storage driver against a server speaking its protocol: S3 (s3rver, signatures checked)
  // and Cloudinary (a local server that checks the SDK's signatures). Built by prepare().
  const storage = await startStorageServers(env);
  const scanner = await ensureScanner(env, { dir: join(dataDir, `clamd-${id}`), port: await freePort() });
  await reserved.release();
  const stack = startServices(env, { ...stackOptions, logDir, quiet: true });
  let crashed;
  stack.onCrash((name) => {
    crashed ??= name;
  });
  let failed = true;
  try {
    await waitHealthy(baseUrl, 60000);
    log(`${label} stack up at ${baseUrl} (logs: ${logDir})`);
    const result = await fn({
      baseUrl,
      env,
      logDir,
      crashed: () => crashed,
      stopService: stack.stopService,
      startService: stack.startService,
      stack,
    });
    failed = false;
    return result;
  } finally {
    await stack.stop();
    await storage.close();
    await scanner.stop();
    rmSync(join(dataDir, `clamd-${id}`), { recursive: true, force: true });
    await dropDatabase(env.DATABASE_URL).catch((e) => log(`could not drop test database: ${e.message}`));
    await dropRedisPrefix(env.REDIS_URL, env.REDIS_PREFIX).catch((e) =>
      log(`could not clean Redis: ${e.message}`),
    );
    rmSync(env.STORAGE_LOCAL_ROOT, { recursive: true, force: true });
    // A failed run keeps its logs whatever was asked: they say why.
    if (!keepLogs && !failed) rmSync(logDir, { recursive: true, force: true });
    else if (failed) log(`${label} logs kept: ${logDir}`);
  }
}
