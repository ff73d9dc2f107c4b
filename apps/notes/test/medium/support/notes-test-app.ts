import type { INestMicroservice } from '@nestjs/common';
import { ClientProxyFactory, type ClientProxy } from '@nestjs/microservices';
import { VaultError, type CreateNoteBody, type RpcAuth, type RpcContext } from '@vault/contracts';
import { PinoNestLogger, redisKeys, rpcCall, rpcClientOptions, runMigrations } from '@vault/server-kit';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
  freePort,
} from '@vault/server-kit/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import pino from 'pino';
import { startNotesService } from '../../../src/bootstrap';
import { loadNotesConfig, type NotesConfig } from '../../../src/config/notes.config';
import { notesDatabaseConfig } from '../../../src/repositories/connections';

/**
 * The real notes microservice on a free TCP port, against a fresh PostgreSQL database
 * (migrated) and a private Redis key prefix, driven through a real Nest ClientProxy.
 * Sessions are made in Redis the way auth makes them (`sess:{sid}` with `userId`).
 * Everything the service logs is captured in `logs`.
 */
export interface NotesTestApp {
  config: NotesConfig;
  db: TestDatabase;
  redis: TestRedis;
  /** A plain pg client on the test database, for assertions on rows. */
  pg: Client;
  logs: string[];
  /** A user with a live session: the context the gateway would send for them. */
  user(): Promise<TestUser>;
  call<T>(pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<T>;
  /** The VaultError a call fails with (fails the test if the call succeeds). */
  fail(pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<VaultError>;
  close(): Promise<void>;
}

export interface TestUser {
  auth: RpcAuth;
  ctx: Partial<RpcContext>;
  call<T>(pattern: string, body?: unknown): Promise<T>;
  fail(pattern: string, body?: unknown): Promise<VaultError>;
}

export { freePort };

export async function startNotesTestApp(label: string): Promise<NotesTestApp> {
  const db = await createTestDatabase(`notes${label}`);
  const redis = await createTestRedis(`notes-${label}`);
  const config = loadNotesConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    NOTES_RPC_HOST: '127.0.0.1',
    NOTES_RPC_PORT: String(await freePort()),
    DB_POOL_SIZE: '4',
  });
  await runMigrations(notesDatabaseConfig(config.database));

  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug', base: { service: 'notes' } }, sink);
  const app: INestMicroservice = await startNotesService(config, new PinoNestLogger(logger));

  const client: ClientProxy = ClientProxyFactory.create(rpcClientOptions('notes', config.rpc));
  await client.connect();
  const pg = new Client({ connectionString: db.url });
  await pg.connect();

  const call = <T>(pattern: string, body: unknown, ctx: Partial<RpcContext> = {}): Promise<T> =>
    rpcCall<T, unknown>(client, pattern, { ctx: context(ctx), body });
  const fail = async (pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<VaultError> => {
    try {
      await call(pattern, body, ctx);
    } catch (error) {
      if (error instanceof VaultError) return error;
      throw error;
    }
    throw new Error(`${pattern} succeeded but a failure was expected`);
  };

  return {
    config,
    db,
    redis,
    pg,
    logs,
    call,
    fail,
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
      await app.close();
      await pg.end();
      await redis.cleanup();
      await db.drop();
    },
  };
}

let requestCounter = 0;
export function context(ctx: Partial<RpcContext> = {}): RpcContext {
  requestCounter += 1;
  return { requestId: `req-${requestCounter}`, ip: '198.51.100.1', userAgent: 'jest', ...ctx };
}

/** A sealed value as the protocol makes it: `hex(ct||tag):hex(iv)`, random bytes. */
export function sealedValue(plaintextBytes = 24): string {
  return `${randomBytes(plaintextBytes + 16).toString('hex')}:${randomBytes(12).toString('hex')}`;
}

/** A wrapped 32-byte note key. */
export const wrappedKey = (): string => sealedValue(32);

/** A valid create body with a fresh client-made id. */
export function noteBody(overrides: Partial<CreateNoteBody> = {}): CreateNoteBody {
  return {
    id: randomUUID(),
    title: sealedValue(20),
    content: sealedValue(200),
    tags: [sealedValue(30)],
    wrappedDEK: wrappedKey(),
    ...overrides,
  };
}

/** The sealed fields of an update (no id: the route carries it). */
export function sealedFieldsOf(body: CreateNoteBody): Omit<CreateNoteBody, 'id'> {
  const { id: _id, ...fields } = body;
  return fields;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
