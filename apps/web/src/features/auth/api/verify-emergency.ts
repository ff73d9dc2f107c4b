import type { ApiClient } from '../../../lib/api-client';
import { readLoginAnswer, type LoginResult } from './login';

/** POST /api/auth/verify-emergency: the extra check after a 418 (unusual activity). */
export async function verifyEmergency(
  api: ApiClient,
  body: { identifier: string; username: string; phoneNumber: string; authKey: string },
): Promise<LoginResult> {
  return readLoginAnswer(await api.post('/auth/verify-emergency', body));
}
