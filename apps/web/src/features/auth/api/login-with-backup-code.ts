import type { ApiClient } from '../../../lib/api-client';
import { readLoginAnswer, type LoginResult } from './login';

/** POST /api/auth/2fa/backup-login: the second step with a single-use backup code (XXXX-XXXX). */
export async function loginWithBackupCode(
  api: ApiClient,
  body: { identifier: string; authKey: string; backupCode: string },
): Promise<LoginResult> {
  return readLoginAnswer(await api.post('/auth/2fa/backup-login', body));
}
