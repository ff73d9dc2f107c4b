import {
  ErrorCode,
  legacyKeyIdParamSchema,
  legacyKeysResponseSchema,
  RECOVERY_LIMITS,
  recoveryEmailCodeBodySchema,
  recoveryGetQuestionsBodySchema,
  recoveryKeyVerifiedResponseSchema,
  recoveryMessageResponseSchema,
  recoveryQuestionsResponseSchema,
  recoveryResetBodySchema,
  recoverySetupKeyBodySchema,
  recoverySetupQuestionsBodySchema,
  recoveryVerifiedResponseSchema,
  recoveryVerifyEmailBodySchema,
  recoveryVerifyKeyBodySchema,
  recoveryVerifyQuestionsBodySchema,
  securityQuestionsResponseSchema,
} from '@vault/contracts';
import { z } from 'zod';
import type { RouteDoc } from './openapi.document';

/**
 * The recovery routes of the OpenAPI document (docs/api.md "Recovery": recovery/*,
 * security-questions, legacy-keys), kept beside the main table so it stays readable.
 */

const E = ErrorCode;
const bypassMinutes = RECOVERY_LIMITS.bypassTtlSeconds / 60;

export const RECOVERY_ROUTES: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/auth/recovery/email-code',
    operationId: 'recoveryEmailCode',
    summary:
      `Mail a ${RECOVERY_LIMITS.codeDigits}-digit recovery code (valid ${RECOVERY_LIMITS.codeTtlSeconds / 60} ` +
      'minutes, single use). The same answer, in about the same time, whether or not the address has an ' +
      'account; limited per address and per IP',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'RecoveryEmailCodeBody',
    success: [
      { status: 200, description: 'The same message for every address', schema: 'RecoveryMessageResponse' },
    ],
    errors: [E.VALIDATION_FAILED, E.RATE_LIMITED],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/verify-email',
    operationId: 'recoveryVerifyEmail',
    summary:
      `Trade a live e-mail code for a bypass token (${bypassMinutes} minutes, single use). A code dies after ` +
      `${RECOVERY_LIMITS.codeMaxAttempts} wrong tries`,
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'RecoveryVerifyEmailBody',
    success: [{ status: 200, description: 'Verified', schema: 'RecoveryVerifiedResponse' }],
    errors: [E.VALIDATION_FAILED, E.INVALID_RECOVERY_CODE],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/setup-key',
    operationId: 'recoverySetupKey',
    summary:
      'Store (or replace) the recovery key: recoveryAuth (kept as a slow hash) and the vault key sealed under ' +
      'the recovery key. Re-checks authKey',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'auth',
    body: 'RecoverySetupKeyBody',
    success: [{ status: 204, description: 'Stored' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.INVALID_CREDENTIALS],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/verify-key',
    operationId: 'recoveryVerifyKey',
    summary:
      'Prove the recovery key: a bypass token and the recovery-wrapped vault key (access and data both come ' +
      'back). Failures are limited per account',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'RecoveryVerifyKeyBody',
    success: [{ status: 200, description: 'Verified', schema: 'RecoveryKeyVerifiedResponse' }],
    errors: [E.VALIDATION_FAILED, E.INVALID_RECOVERY_KEY, E.RATE_LIMITED],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/setup-questions',
    operationId: 'recoverySetupQuestions',
    summary:
      'Store 3 security questions (texts only), the answers’ salt and answersAuth (a slow hash); the answers ' +
      'never leave the device',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    body: 'RecoverySetupQuestionsBody',
    success: [{ status: 204, description: 'Stored (replacing earlier questions)' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'get',
    path: '/api/auth/security-questions',
    operationId: 'securityQuestions',
    summary: 'The caller’s question texts, or an empty list when none are set',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Questions', schema: 'SecurityQuestionsResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/get-questions',
    operationId: 'recoveryGetQuestions',
    summary:
      'The questions of an address with the answers’ salt and the account’s KDF parameters. 404 when none ' +
      '(which tells that an address has questions: the contract’s choice)',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'RecoveryGetQuestionsBody',
    success: [{ status: 200, description: 'Questions', schema: 'RecoveryQuestionsResponse' }],
    errors: [E.VALIDATION_FAILED, E.NO_SECURITY_QUESTIONS],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/verify-questions',
    operationId: 'recoveryVerifyQuestions',
    summary:
      'Prove the answers (answersAuth): a bypass token (access only). Failures are limited per account',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'RecoveryVerifyQuestionsBody',
    success: [{ status: 200, description: 'Verified', schema: 'RecoveryVerifiedResponse' }],
    errors: [E.VALIDATION_FAILED, E.INCORRECT_ANSWERS, E.RATE_LIMITED],
  },
  {
    method: 'post',
    path: '/api/auth/recovery/reset',
    operationId: 'recoveryReset',
    summary:
      'Set new credentials with a bypass token (used up). newVaultKey: the old wrapped key is kept as a legacy ' +
      'key (only a recovery-key proof may keep the vault key). With 2FA on, code or backupCode is required. ' +
      'Every session is revoked, the lockout cleared, and a new session starts',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'RecoveryResetBody',
    success: [{ status: 200, description: 'Reset, signed in', schema: 'AuthResponse', setsCookie: true }],
    errors: [E.VALIDATION_FAILED, E.BYPASS_TOKEN_INVALID, E.INVALID_VERIFICATION_CODE, E.RATE_LIMITED],
  },
  {
    method: 'get',
    path: '/api/auth/legacy-keys',
    operationId: 'listLegacyKeys',
    summary: 'Vault keys from before a reset, newest first, each wrapped under its old password',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Legacy keys', schema: 'LegacyKeysResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'delete',
    path: '/api/auth/legacy-keys/{id}',
    operationId: 'deleteLegacyKey',
    summary: 'Forget a legacy key (its old items can no longer be unlocked)',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    params: legacyKeyIdParamSchema,
    success: [{ status: 204, description: 'Deleted' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

export function recoveryComponents(): Record<string, Record<string, unknown>> {
  return {
    RecoveryEmailCodeBody: jsonSchema(recoveryEmailCodeBodySchema, 'input'),
    RecoveryVerifyEmailBody: jsonSchema(recoveryVerifyEmailBodySchema, 'input'),
    RecoverySetupKeyBody: jsonSchema(recoverySetupKeyBodySchema, 'input'),
    RecoveryVerifyKeyBody: jsonSchema(recoveryVerifyKeyBodySchema, 'input'),
    RecoverySetupQuestionsBody: jsonSchema(recoverySetupQuestionsBodySchema, 'input'),
    RecoveryGetQuestionsBody: jsonSchema(recoveryGetQuestionsBodySchema, 'input'),
    RecoveryVerifyQuestionsBody: jsonSchema(recoveryVerifyQuestionsBodySchema, 'input'),
    RecoveryResetBody: jsonSchema(recoveryResetBodySchema, 'input'),
    RecoveryMessageResponse: jsonSchema(recoveryMessageResponseSchema, 'output'),
    RecoveryVerifiedResponse: jsonSchema(recoveryVerifiedResponseSchema, 'output'),
    RecoveryKeyVerifiedResponse: jsonSchema(recoveryKeyVerifiedResponseSchema, 'output'),
    SecurityQuestionsResponse: jsonSchema(securityQuestionsResponseSchema, 'output'),
    RecoveryQuestionsResponse: jsonSchema(recoveryQuestionsResponseSchema, 'output'),
    LegacyKeysResponse: jsonSchema(legacyKeysResponseSchema, 'output'),
  };
}
