import type { INestMicroservice } from '@nestjs/common';
import { DEFAULT_KDF_PARAMS, type RpcAuth, type RpcContext, type SignupBody } from '@vault/contracts';
import { startRpcTestApp, type RpcTestApp } from '@vault/server-kit/testing';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { startAuthService } from '../../../src/bootstrap';
import { loadAuthConfig, type AuthConfig } from '../../../src/config/auth.config';
import { authDatabaseConfig } from '../../../src/repositories/connections';

export { context, freePort, sleep, testAppPerFile } from '@vault/server-kit/testing';

/** The real auth microservice (server-kit's startRpcTestApp), with the public key of its tokens. */
export interface AuthTestApp extends RpcTestApp<AuthConfig, INestMicroservice> {
  publicKeyPem: string;
  /** The running service, for calls other services make in-process (e.g. `app.get(TwoFactorService)`). */
  app: INestMicroservice;
}

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
  const keys = generateJwtKeys();
  const t = await startRpcTestApp({
    service: 'auth',
    label,
    env: {
      JWT_PRIVATE_KEY: keys.privateKeyPem,
      JWT_PUBLIC_KEY: keys.publicKeyPem,
      SERVER_SECRET: randomBytes(32).toString('hex'),
      ...overrides,
    },
    loadConfig: loadAuthConfig,
    databaseConfig: (config) => authDatabaseConfig(config.database),
    start: startAuthService,
    stop: (app) => app.close(),
  });
  return { ...t, publicKeyPem: keys.publicKeyPem, app: t.service };
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
