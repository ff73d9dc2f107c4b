import { authResponseSchema, type AuthResponse } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

export type LoginResult = { kind: 'session'; session: AuthResponse } | { kind: 'requires2FA' };

/** Reads a sign-in answer: a session, or the 2FA step (no token then). */
export function readLoginAnswer(data: unknown): LoginResult {
  if (typeof data === 'object' && data !== null && (data as { requires2FA?: unknown }).requires2FA === true) {
    return { kind: 'requires2FA' };
  }
  return { kind: 'session', session: parseResponse(authResponseSchema, data) };
}

/**
 * POST /api/auth/login with the authKey derived on this device (never the password).
 * 401 'Invalid credentials'; 423 {retryAfter}; 418 {requiresEmergencyVerification}.
 */
export async function login(
  api: ApiClient,
  body: { identifier: string; authKey: string },
): Promise<LoginResult> {
  return readLoginAnswer(await api.post('/auth/login', body));
}
