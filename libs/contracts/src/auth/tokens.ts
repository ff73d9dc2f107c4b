import type { Role } from './user.schema';

/** Access-token claims (docs/api.md "Authentication"). */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  role: Role;
  aud: string;
  iss: string;
  iat: number;
  exp: number;
}

export const ACCESS_TOKEN = {
  audience: 'vault',
  issuer: 'vault-auth',
  /** Only these algorithms are ever accepted. */
  algorithms: ['EdDSA'] as const,
  ttlSeconds: 15 * 60,
} as const;

export const REFRESH_COOKIE = {
  name: 'vault_refresh',
  path: '/api/auth',
} as const;
