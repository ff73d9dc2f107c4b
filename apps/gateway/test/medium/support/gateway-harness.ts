import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ACCESS_TOKEN, type Role } from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import { createTestRedis, type TestRedis, freePort } from '@vault/server-kit/testing';
import { SignJWT } from 'jose';
import pino from 'pino';
import { SessionCache } from '../../../src/auth/session-cache';
import { createGatewayApp } from '../../../src/bootstrap';
import { loadGatewayConfig, type GatewayConfig } from '../../../src/config/gateway.config';

/** A TCP port nothing listens on (for an absent service) or that a stub can take. */
export { freePort };

export interface Caller {
  userId: string;
  sessionId: string;
  role: Role;
}

export type InjectOptions = Parameters<NestFastifyApplication['inject']>[0] & object;
export type InjectAnswer = Awaited<ReturnType<NestFastifyApplication['inject']>>;

export interface GatewayHarness {
  app: NestFastifyApplication;
  /** A request from a fresh client address (limits never cross tests), with `token` as bearer. */
  inject(opts: InjectOptions, token?: string | null): Promise<InjectAnswer>;
  config: GatewayConfig;
  redis: TestRedis;
  /** Every log line the gateway wrote, as JSON text. */
  logs: string[];
  /** A valid access token signed with the test key (the session is not opened). */
  token(
    caller?: Partial<Caller>,
    claims?: Record<string, unknown>,
  ): Promise<{ token: string; caller: Caller }>;
  /** Creates `sess:{sid}` the way auth does, so the guard's liveness check passes. */
  openSession(sessionId: string): Promise<void>;
  /** A valid token of a live session (token, then openSession). */
  signedIn(): Promise<{ token: string; caller: Caller }>;
  /**
   * Deletes `sess:{sid}` as auth does when a session ends, and resolves once the gateway no longer
   * remembers it (Redis's report of the deletion has arrived): how long that took, in ms.
   */
  endSession(sessionId: string): Promise<number>;
  /** Another gateway of the same deployment (same keys, same Redis): the caller closes it. */
  replica(): Promise<NestFastifyApplication>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  /** Port of the auth RPC; by default a free port where nothing listens. */
  authPort?: number;
  /** Port of the notes RPC; by default a free port where nothing listens. */
  notesPort?: number;
  /** Port of the files RPC; by default a free port where nothing listens. */
  filesPort?: number;
  /** The files service's HTTP listener (blob route); by default a free port where nothing listens. */
  filesHttpUrl?: string;
}

/** Boots the real gateway in-process against real Redis (a private key prefix). */
export async function startGateway(options: HarnessOptions = {}): Promise<GatewayHarness> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const redis = await createTestRedis('gateway');
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadGatewayConfig({
    JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    AUTH_RPC_PORT: String(options.authPort ?? (await freePort())),
    NOTES_RPC_PORT: String(options.notesPort ?? (await freePort())),
    FILES_RPC_PORT: String(options.filesPort ?? (await freePort())),
    ADMIN_RPC_PORT: String(await freePort()),
    FILES_HTTP_URL: options.filesHttpUrl ?? `http://127.0.0.1:${await freePort()}`,
    RPC_TIMEOUT_MS: '3000',
    ...options.env,
  });
  const logger = pino({ level: 'trace', base: { service: 'gateway' } }, sink);
  const app = await createGatewayApp({ config, logger });
  const openSession = async (sessionId: string): Promise<void> => {
    await redis.client.hset(redisKeys.session(sessionId), 'userId', 'x');
  };
  return {
    app,
    inject: (opts, token) =>
      app.inject({
        remoteAddress: clientAddress(),
        ...opts,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(opts.headers ?? {}) },
      }),
    config,
    redis,
    logs,
    token: (caller, claims) => signToken(privateKey, caller, claims),
    openSession,
    async signedIn() {
      const signed = await signToken(privateKey);
      await openSession(signed.caller.sessionId);
      return signed;
    },
    async endSession(sessionId) {
      const cache = app.get(SessionCache);
      await redis.client.del(redisKeys.session(sessionId));
      const started = Date.now();
      while (cache.has(sessionId)) {
        if (Date.now() - started > 1000) throw new Error('the session was still remembered after 1 s');
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return Date.now() - started;
    },
    replica: () => createGatewayApp({ config, logger: pino({ level: 'silent' }) }),
    async close() {
      await app.close();
      await redis.cleanup();
    },
  };
}

async function signToken(
  key: KeyObject,
  caller: Partial<Caller> = {},
  claims: Record<string, unknown> = {},
): Promise<{ token: string; caller: Caller }> {
  const full: Caller = {
    userId: caller.userId ?? randomUUID(),
    sessionId: caller.sessionId ?? randomUUID(),
    role: caller.role ?? 'user',
  };
  const token = await new SignJWT({ sid: full.sessionId, role: full.role, ...claims })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(full.userId)
    .setAudience(ACCESS_TOKEN.audience)
    .setIssuer(ACCESS_TOKEN.issuer)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN.ttlSeconds}s`)
    .sign(key);
  return { token, caller: full };
}

/** A distinct client address per test, so rate-limit counters never cross tests. */
let nextAddress = 1;
export function clientAddress(): string {
  const n = nextAddress++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
