import { configError } from '@vault/server-kit/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeConfig, loadAuthConfig } from './auth.config';

const PRIVATE_PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----';
const PUBLIC_PEM = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----';
const SECRET = 'x'.repeat(32);

const minimal = { JWT_PRIVATE_KEY: PRIVATE_PEM, JWT_PUBLIC_KEY: PUBLIC_PEM, SERVER_SECRET: SECRET };

const errorOf = (env: Record<string, string | undefined>): string => configError(loadAuthConfig, env);

describe('auth configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadAuthConfig(minimal);
    expect(config.database).toEqual({ url: 'postgres://postgres@127.0.0.1:5432/vault', poolSize: 10 });
    expect(config.rpc).toMatchObject({ transport: 'tcp', host: '127.0.0.1', port: 4001 });
    expect(config.jwt.accessTtlSeconds).toBe(900);
    expect(config.refresh).toEqual({ ttlSeconds: 2_592_000, reuseGraceSeconds: 10 });
    expect(config.lockout).toEqual({ threshold: 5, seconds: 600 });
    expect(config.loginIpThrottle).toEqual({ maxFailures: 50, windowSeconds: 900 });
    expect(config.secretHash).toEqual({ memoryKiB: 19456, iterations: 2, parallelism: 1 });
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'vault:' });
    expect(config.adminSession).toEqual({ idleMs: 20 * 60_000, maxMs: 8 * 3_600_000 });
  });

  it('reads the admin session limits in minutes and hours, and refuses zero', () => {
    const config = loadAuthConfig({
      ...minimal,
      ADMIN_SESSION_IDLE_MINUTES: '5',
      ADMIN_SESSION_MAX_HOURS: '2',
    });
    expect(config.adminSession).toEqual({ idleMs: 5 * 60_000, maxMs: 2 * 3_600_000 });
    const message = errorOf({ ...minimal, ADMIN_SESSION_IDLE_MINUTES: '0', ADMIN_SESSION_MAX_HOURS: 'x' });
    expect(message).toContain('ADMIN_SESSION_IDLE_MINUTES:');
    expect(message).toContain('ADMIN_SESSION_MAX_HOURS:');
  });

  it('opens no probe port unless HEALTH_PORT is set', () => {
    expect(loadAuthConfig(minimal).health).toEqual({ host: '0.0.0.0', port: undefined });
    expect(loadAuthConfig({ ...minimal, HEALTH_PORT: '9090', HEALTH_HOST: '127.0.0.1' }).health).toEqual({
      host: '127.0.0.1',
      port: 9090,
    });
    expect(errorOf({ ...minimal, HEALTH_PORT: '70000' })).toMatch(/HEALTH_PORT/);
  });

  it('lists every missing secret at once', () => {
    const message = errorOf({});
    expect(message).toContain('Invalid configuration');
    expect(message).toContain('JWT_PRIVATE_KEY: JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE is required');
    expect(message).toContain('JWT_PUBLIC_KEY: JWT_PUBLIC_KEY or JWT_PUBLIC_KEY_FILE is required');
    expect(message).toContain('SERVER_SECRET: SERVER_SECRET or SERVER_SECRET_FILE is required');
  });

  it('refuses a server secret shorter than 32 characters', () => {
    expect(errorOf({ ...minimal, SERVER_SECRET: 'short' })).toContain(
      'SERVER_SECRET: must be at least 32 characters',
    );
  });

  it('refuses keys that are not PEM of the right kind', () => {
    const message = errorOf({ ...minimal, JWT_PRIVATE_KEY: PUBLIC_PEM, JWT_PUBLIC_KEY: 'abc' });
    expect(message).toContain('JWT_PRIVATE_KEY: must be a PKCS8 PEM');
    expect(message).toContain('JWT_PUBLIC_KEY: must be a SPKI PEM');
  });

  it('accepts PEM keys written on one line with literal \\n', () => {
    const config = loadAuthConfig({ ...minimal, JWT_PRIVATE_KEY: PRIVATE_PEM.replace(/\n/g, '\\n') });
    expect(config.jwt.privateKeyPem).toBe(PRIVATE_PEM);
  });

  it('refuses numbers that are not numbers or out of range', () => {
    const message = errorOf({
      ...minimal,
      LOCKOUT_SECONDS: 'ten',
      AUTH_RPC_PORT: '70000',
      LOCKOUT_THRESHOLD: '0',
    });
    expect(message).toContain('LOCKOUT_SECONDS:');
    expect(message).toContain('AUTH_RPC_PORT:');
    expect(message).toContain('LOCKOUT_THRESHOLD:');
  });

  it('refuses a database URL that is not postgres://', () => {
    expect(errorOf({ ...minimal, DATABASE_URL: 'mysql://x' })).toContain(
      'DATABASE_URL: must be a postgres:// URL',
    );
  });

  it('reads secrets from *_FILE paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-config-'));
    writeFileSync(join(dir, 'private.pem'), `${PRIVATE_PEM}\n`);
    writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
    const config = loadAuthConfig({
      JWT_PRIVATE_KEY_FILE: join(dir, 'private.pem'),
      JWT_PUBLIC_KEY: PUBLIC_PEM,
      SERVER_SECRET_FILE: join(dir, 'secret'),
    });
    expect(config.jwt.privateKeyPem).toBe(PRIVATE_PEM);
    expect(config.serverSecret).toBe(SECRET);
  });

  it('names an unreadable *_FILE path without stopping at it', () => {
    const message = errorOf({
      ...minimal,
      SERVER_SECRET: undefined,
      SERVER_SECRET_FILE: '/nonexistent/x',
      LOCKOUT_SECONDS: 'x',
    });
    expect(message).toContain('SERVER_SECRET_FILE: cannot read the file (ENOENT)');
    expect(message).toContain('LOCKOUT_SECONDS:');
  });

  it('masks keys and secrets in the boot log but shows plain numbers', () => {
    const shown = describeConfig(
      loadAuthConfig({ ...minimal, DATABASE_URL: 'postgres://vault:hunter2@db:5432/vault' }),
    );
    const text = JSON.stringify(shown);
    expect(text).not.toContain('BEGIN PRIVATE KEY');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hunter2');
    expect(shown.JWT_PRIVATE_KEY).toBe('***');
    expect(shown.SERVER_SECRET).toBe('***');
    expect(shown.SECRET_HASH_MEMORY_KIB).toBe(19456);
    expect(shown.ACCESS_TOKEN_TTL_SECONDS).toBe(900);
  });
});
