import {
  authResponseSchema,
  recoveryKeyVerifiedResponseSchema,
  recoveryMessageResponseSchema,
  recoveryQuestionsResponseSchema,
  recoveryVerifiedResponseSchema,
  type AuthResponse,
  type KdfParamsDto,
  type RecoveryKeyVerifiedResponse,
  type RecoveryQuestionsResponse,
  type RecoveryVerifiedResponse,
} from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/**
 * The signed-out recovery calls (docs/api.md "Recovery"), answers checked against
 * the contract schemas. The server sees the e-mail, the code, recoveryAuth / answersAuth and the new
 * password's derived material; never a recovery key, an answer or a password.
 */

export type RecoveryQuestions = RecoveryQuestionsResponse;

/** POST /api/auth/recovery/email-code {email} → {message} (the same text whether or not the account exists). */
export async function sendRecoveryCode(api: ApiClient, email: string): Promise<string> {
  return parseResponse(recoveryMessageResponseSchema, await api.post('/auth/recovery/email-code', { email }))
    .message;
}

/** POST /api/auth/recovery/verify-email {email, code} → {bypassToken, message}; 400 'Invalid recovery code'. */
export async function verifyRecoveryCode(
  api: ApiClient,
  body: { email: string; code: string },
): Promise<RecoveryVerifiedResponse> {
  return parseResponse(recoveryVerifiedResponseSchema, await api.post('/auth/recovery/verify-email', body));
}

/** POST /api/auth/recovery/get-questions {email} → {questions, questionsSalt, kdfParams}; 404 when none. */
export async function getRecoveryQuestions(api: ApiClient, email: string): Promise<RecoveryQuestions> {
  return parseResponse(
    recoveryQuestionsResponseSchema,
    await api.post('/auth/recovery/get-questions', { email }),
  );
}

/** POST /api/auth/recovery/verify-questions {email, answersAuth} → {bypassToken, message}; 401 'Incorrect answers'. */
export async function verifyRecoveryAnswers(
  api: ApiClient,
  body: { email: string; answersAuth: string },
): Promise<RecoveryVerifiedResponse> {
  return parseResponse(
    recoveryVerifiedResponseSchema,
    await api.post('/auth/recovery/verify-questions', body),
  );
}

/** POST /api/auth/recovery/verify-key {email, recoveryAuth} → {bypassToken, message, recoveryWrappedVaultKey}. */
export async function verifyRecoveryKey(
  api: ApiClient,
  body: { email: string; recoveryAuth: string },
): Promise<RecoveryKeyVerifiedResponse> {
  return parseResponse(recoveryKeyVerifiedResponseSchema, await api.post('/auth/recovery/verify-key', body));
}

export interface RecoveryResetRequest {
  bypassToken: string;
  authKey: string;
  salt: string;
  kdfParams: KdfParamsDto;
  wrappedVaultKey: string;
  newVaultKey: boolean;
  code?: string;
  backupCode?: string;
}

/**
 * POST /api/auth/recovery/reset → {access, user, wrappedVaultKey} + the refresh cookie. 401 when the
 * token expired or was used; 401 'Invalid verification code' when the account has 2FA and no valid code came.
 */
export async function resetWithRecovery(api: ApiClient, body: RecoveryResetRequest): Promise<AuthResponse> {
  return parseResponse(authResponseSchema, await api.post('/auth/recovery/reset', body));
}
