import { UUID_V4_RE } from '@vault/contracts';
import { randomToken, sha256Hex } from '@vault/server-kit';

/**
 * Refresh tokens are `<sessionId>.<32 random bytes, base64url>`. The session id lets a
 * refresh find its session in one Redis read; only the SHA-256 of the whole token is
 * stored, so a Redis dump cannot be replayed.
 */
export const REFRESH_SECRET_BYTES = 32;
const SECRET_RE = /^[A-Za-z0-9_-]{43}$/; // 32 bytes in unpadded base64url

export interface ParsedRefreshToken {
  sessionId: string;
  secret: string;
}

export function formatRefreshToken(sessionId: string, secret: string): string {
  return `${sessionId}.${secret}`;
}

/** A fresh token for a session. */
export function newRefreshToken(sessionId: string): string {
  return formatRefreshToken(sessionId, randomToken(REFRESH_SECRET_BYTES));
}

/** Null for anything that is not exactly a well-formed token (never throws). */
export function parseRefreshToken(token: unknown): ParsedRefreshToken | null {
  if (typeof token !== 'string' || token.length > 100) return null;
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const sessionId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (!UUID_V4_RE.test(sessionId) || !SECRET_RE.test(secret)) return null;
  return { sessionId, secret };
}

export function hashRefreshToken(token: string): string {
  return sha256Hex(token);
}
