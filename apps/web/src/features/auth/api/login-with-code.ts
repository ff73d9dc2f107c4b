import type { ApiClient } from '../../../lib/api-client';
import { readLoginAnswer, type LoginResult } from './login';

/** POST /api/auth/2fa/login: the second step with a 6-digit authenticator code. */
export async function loginWithCode(
  api: ApiClient,
  body: { identifier: string; authKey: string; code: string },
): Promise<LoginResult> {
  return readLoginAnswer(await api.post('/auth/2fa/login', body));
}
