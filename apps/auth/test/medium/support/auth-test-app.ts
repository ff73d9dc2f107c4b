import type { INestMicroservice } from '@nestjs/common';
import { ClientProxyFactory, type ClientProxy } from '@nestjs/microservices';
import {
  DEFAULT_KDF_PARAMS,
  VaultError,
  type RpcAuth,
  type RpcContext,
  type SignupBody,
} from '@vault/contracts';
import { PinoNestLogger, rpcCall, rpcClientOptions, runMigrations } from '@vault/server-kit';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
  freePort,
} from '@vault/server-kit/testing';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import pino from 'pino';
import { startAuthService } from '../../../src/bootstrap';
import { loadAuthConfig, type AuthConfig } from '../../../src/config/auth.config';
import { authDatabaseConfig } from '../../../src/repositories/connections';

/**
 * The real auth microservice on a free TCP port, against a fresh PostgreSQL database
 * (migrated) and a private Redis key prefix, driven through a real Nest ClientProxy.
 * Everything the service logs is captured in `logs` (for the no-identifiers-in-logs check).
 */
export interface AuthTestApp {
  config: AuthConfig;
  db: TestDatabase;
  redis: TestRedis;
  /** A plain pg client on the test database, for assertions on rows. */
  pg: Client;
  publicKeyPem: string;
  logs: string[];
  /** The running service, for calls other services make in-process (e.g. `app.get(TwoFactorService)`). */
  app: INestMicroservice;
  call<T>(pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<T>;
  /** The VaultError a call fails with (fails the test if the call succeeds). */
  fail(pattern: string, body: unknown, ctx?: Partial<RpcContext>): Promise<VaultError>;
  close(): Promise<void>;
}

export { freePort };

export function generateJwtKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export async function startAuthTestApp(
  label: string,
  overrides: Record<string, string> = {},
): Promise<AuthTestApp> {
  const db = await createTestDatabase(`auth${label}`);
  const redis = await createTestRedis(`auth-${label}`);
  const keys = generateJwtKeys();
  const config = loadAuthConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    AUTH_RPC_HOST: '127.0.0.1',
    AUTH_RPC_PORT: String(await freePort()),
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    SERVER_SECRET: randomBytes(32).toString('hex'),
    DB_POOL_SIZE: '4',
    ...overrides,
  });
  await runMigrations(authDatabaseConfig(config.database));

  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug', base: { service: 'auth' } }, sink);
  const app: INestMicroservice = await startAuthService(config, new PinoNestLogger(logger));

  const client: ClientProxy = ClientProxyFactory.create(rpcClientOptions('auth', config.rpc));
  await client.connect();
  const pg = new Client({ connectionString: db.url });
  await pg.connect();

  const call = <T>(pattern: string, body: unknown, ctx: Partial<RpcContext> = {}): Promise<T> =>
    rpcCall<T, unknown>(client, pattern, { ctx: context(ctx), body });

  return {
    config,
    db,
    redis,
    pg,
    publicKeyPem: keys.publicKeyPem,
    logs,
    app,
    call,
    async fail(pattern, body, ctx) {
      try {
        await call(pattern, body, ctx);
      } catch (error) {
        if (error instanceof VaultError) return error;
        throw error;
      }
      throw new Error(`${pattern} succeeded but a failure was expected`);
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

export function authOf(userId: string, sessionId: string): Partial<RpcContext> {
  const auth: RpcAuth = { userId, sessionId, role: 'user' };
  return { auth };
}

export const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
export const sealedKeyValue = (): string => `${hex(48)}:${hex(12)}`;

/** A valid sign-up body (what the gateway forwards), with unique names. */
export function signupBody(overrides: Partial<SignupBody> = {}): SignupBody {
  const tag = randomBytes(4).toString('hex');
  return {
    username: `user_${tag}`,
    email: `user_${tag}@example.com`,
    // Phone numbers are unique: all 32 random bits, so the accounts of one test file never collide.
    phoneNumber: `+1 555 ${parseInt(tag, 16).toString().padStart(10, '0')}`,
    authKey: hex(32),
    salt: hex(16),
    kdfParams: DEFAULT_KDF_PARAMS,
    wrappedVaultKey: sealedKeyValue(),
    ...overrides,
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
