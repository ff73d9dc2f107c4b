import { ClientProxyFactory } from '@nestjs/microservices';
import { RPC, VaultError, type RpcAuth, type RpcContext } from '@vault/contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a relative path would point into testing/dist
import {
  createQueueConnection,
  PinoNestLogger,
  queuePrefix,
  redisKeys,
  rpcCall,
  rpcClientOptions,
  runMigrations,
  type DatabaseConfig,
  type RpcTransportConfig,
} from '@vault/server-kit';
import { Queue, type Job, type JobsOptions } from 'bullmq';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import pino, { type Logger } from 'pino';
import { writeAdminSessions } from './admin-context';
import { freePort } from './free-port';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from './test-infra';

/** A pino logger at debug level whose every line is kept in `logs` (for the no-identifiers-in-logs checks). */
export function captureLogs(service: string): { logs: string[]; logger: Logger } {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logs, logger: pino({ level: 'debug', base: { service } }, sink) };
}

/**
 * Every reply a medium test receives must parse with its pattern's reply schema in the RPC map:
 * the gateway does not parse replies again, so this is where a service drifting from the contract
 * is caught.
 */
export function assertReplyContract(pattern: string, reply: unknown): void {
  if (!Object.hasOwn(RPC, pattern)) return;
  const parsed = RPC[pattern as keyof typeof RPC].reply.safeParse(reply);
  if (!parsed.success) {
    throw new Error(`${pattern} answered outside its reply schema: ${parsed.error.message}`);
  }
}

let requestCounter = 0;
/** The context the gateway sends: a fresh request id, a test IP and user agent, then `ctx`. */
export function context(ctx: Partial<RpcContext> = {}): RpcContext {
  requestCounter += 1;
  return { requestId: `req-${requestCounter}`, ip: '198.51.100.1', userAgent: 'jest', ...ctx };
}

/** A user with a live session: the context the gateway would send for them. */
export interface TestUser {
  auth: RpcAuth;
  ctx: Partial<RpcContext>;
  call<T>(pattern: string, body?: unknown): Promise<T>;
  fail(pattern: string, body?: unknown): Promise<VaultError>;
}

export interface RpcTestApp<C, S> {
  config: C;
  /** What the service's start function returned. */
  service: S;
  db: TestDatabase;
  redis: TestRedis;
  /** A plain pg client on the test database, for assertions on rows. */
  pg: Client;
  logs: string[];
  /** A session made in Redis the way auth makes them (`sess:{sid}` with `userId`). */
  user(): Promise<TestUser>;
  call<T>(pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<T>;
  /** The VaultError a call fails with (fails the test if the call succeeds). */
  fail(pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<VaultError>;
  /** A BullMQ queue under the app's prefix, to add jobs as a producer does or read what the service queued. */
  queue(name: string): Queue;
  close(): Promise<void>;
}

export interface RpcTestAppOptions<C, S> {
  service: 'auth' | 'notes' | 'files' | 'admin';
  /** Part of the test database's name and Redis prefix. */
  label: string;
  /** The service's own variables, besides the database, Redis and its RPC listener. */
  env?: Record<string, string>;
  loadConfig: (env: Record<string, string>) => C;
  databaseConfig: (config: C) => DatabaseConfig;
  start: (config: C, logger: PinoNestLogger, log: Logger) => Promise<S>;
  stop: (service: S) => Promise<void>;
}

/**
 * A real RPC service on a free TCP port, against a fresh migrated PostgreSQL database and a
 * private Redis key prefix, driven through a real Nest ClientProxy (the medium tests of auth,
 * notes and files). Everything the service logs is captured in `logs`.
 */
export async function startRpcTestApp<C extends { rpc: RpcTransportConfig }, S>(
  options: RpcTestAppOptions<C, S>,
): Promise<RpcTestApp<C, S>> {
  const { service: name, label } = options;
  const db = await createTestDatabase(`${name}${label}`);
  const redis = await createTestRedis(`${name}-${label}`);
  const prefix = name.toUpperCase();
  const config = options.loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    [`${prefix}_RPC_HOST`]: '127.0.0.1',
    [`${prefix}_RPC_PORT`]: String(await freePort()),
    DB_POOL_SIZE: '4',
    ...options.env,
  });
  await runMigrations(options.databaseConfig(config));

  const { logs, logger } = captureLogs(name);
  const service = await options.start(config, new PinoNestLogger(logger), logger);

  const client = ClientProxyFactory.create(rpcClientOptions(name, config.rpc));
  await client.connect();
  const pg = new Client({ connectionString: db.url });
  await pg.connect();

  const call = async <T>(pattern: string, body: unknown, ctx: Partial<RpcContext> = {}): Promise<T> => {
    await writeAdminSessions(redis.client, ctx);
    const received = await rpcCall<T, unknown>(client, pattern, { ctx: context(ctx), body });
    // A RawJson in a reply (the notes list's pages) is checked and handed on as the value it holds.
    const reply = received === undefined ? received : (JSON.parse(JSON.stringify(received)) as T);
    assertReplyContract(pattern, reply);
    return reply;
  };
  const fail = async (pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<VaultError> => {
    try {
      await call(pattern, body, ctx);
    } catch (error) {
      if (error instanceof VaultError) return error;
      throw error;
    }
    throw new Error(`${pattern} succeeded but a failure was expected`);
  };

  const queues = new Map<string, Queue>();
  let queueConnection: ReturnType<typeof createQueueConnection> | undefined;
  const queue = (queueName: string): Queue => {
    queueConnection ??= createQueueConnection(redis.url);
    const open =
      queues.get(queueName) ??
      new Queue(queueName, { connection: queueConnection, prefix: queuePrefix(redis.prefix) });
    queues.set(queueName, open);
    return open;
  };

  return {
    config,
    service,
    db,
    redis,
    pg,
    logs,
    call,
    fail,
    queue,
    async user() {
      const auth: RpcAuth = { userId: randomUUID(), sessionId: randomUUID(), role: 'user' };
      await redis.client.hset(redisKeys.session(auth.sessionId), 'userId', auth.userId);
      const ctx = { auth };
      return {
        auth,
        ctx,
        call: <T>(pattern: string, body?: unknown) => call<T>(pattern, body, ctx),
        fail: (pattern: string, body?: unknown) => fail(pattern, body, ctx),
      };
    },
    async close() {
      client.close();
      await options.stop(service);
      await Promise.all([...queues.values()].map((q) => q.close()));
      queueConnection?.disconnect();
      await pg.end();
      await redis.cleanup();
      await db.drop();
    },
  };
}

/**
 * The app a test file runs against: started before its first test, closed after its last. The
 * object returned is filled in by that beforeAll (the apps are plain objects), so the file's
 * tests use it as it is.
 */
export function testAppPerFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  const app = {} as T;
  beforeAll(async () => {
    Object.assign(app, await start());
  });
  afterAll(async () => {
    if ('close' in app) await app.close();
  });
  return app;
}

/** A sealed value as the protocol makes it: `hex(ct||tag):hex(iv)`, random bytes. */
export function sealedValue(plaintextBytes = 24): string {
  return `${randomBytes(plaintextBytes + 16).toString('hex')}:${randomBytes(12).toString('hex')}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds a job the way its producer does and waits until a worker has completed or failed it. */
export async function runQueuedJob(
  queue: Queue,
  name: string,
  data: unknown,
  options: JobsOptions & { jobId: string },
  timeoutMs = 20_000,
): Promise<Job> {
  await queue.add(name, data, options);
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(50)) {
    const state = await (await queue.getJob(options.jobId))?.getState();
    // Read again once finished: a job read before it finished has no return value yet.
    const job = state === 'completed' || state === 'failed' ? await queue.getJob(options.jobId) : undefined;
    if (job) return job;
  }
  throw new Error(`job ${options.jobId} did not finish`);
}

/** A test file's own empty database and a pg client on it (migration specs). */
export interface MigrationTestDatabase {
  url: string;
  pg: Client;
  /** The tables of a schema, by name. */
  tables(schema: string): Promise<string[]>;
}

/** A MigrationTestDatabase made before the file's first test and dropped after its last. */
export function testDatabasePerFile(label: string): MigrationTestDatabase {
  const holder = {} as MigrationTestDatabase;
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(label);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    Object.assign(holder, {
      url: db.url,
      pg,
      async tables(schema: string) {
        const res = await pg.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
          [schema],
        );
        return res.rows.map((r) => r.table_name);
      },
    });
  });
  afterAll(async () => {
    await holder.pg?.end();
    await db?.drop();
  });
  return holder;
}
