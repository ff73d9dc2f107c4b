import {
  authResponseSchema,
  BACKUP_CODE_COUNT,
  backupCodesInfoResponseSchema,
  backupCodesResponseSchema,
  backupLoginBodySchema,
  ErrorCode,
  twoFactorEnableBodySchema,
  twoFactorEnableResponseSchema,
  twoFactorLoginBodySchema,
  twoFactorProofBodySchema,
  twoFactorVerifyBodySchema,
} from '@vault/contracts';
import { z } from 'zod';
import type { RouteDoc } from './openapi.document';

/**
 * The 2FA routes of the OpenAPI document (docs/api.md "Two-step verification"), kept
 * beside the main table so it stays readable.
 */

const E = ErrorCode;
const SIGN_IN_ERRORS = [
  E.VALIDATION_FAILED,
  E.INVALID_CREDENTIALS,
  E.EMERGENCY_VERIFICATION_REQUIRED,
  E.ACCOUNT_LOCKED,
  E.RATE_LIMITED,
];
const SIGNED_IN_ERRORS = [E.UNAUTHENTICATED, E.SESSION_REVOKED];

export const TWO_FACTOR_ROUTES: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/auth/2fa/login',
    operationId: 'twoFactorLogin',
    summary:
      'Sign in with identifier, authKey and a 6-digit authenticator code (RFC 6238, ±1 step, each code ' +
      'accepted once). A wrong code counts toward the lockout like a wrong key. On an account without 2FA ' +
      'the code is not needed',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'TwoFactorLoginBody',
    success: [
      {
        status: 200,
        description: 'Signed in (refresh cookie set)',
        schema: 'AuthResponse',
        setsCookie: true,
      },
    ],
    errors: [...SIGN_IN_ERRORS, E.INVALID_VERIFICATION_CODE],
  },
  {
    method: 'post',
    path: '/api/auth/2fa/backup-login',
    operationId: 'backupCodeLogin',
    summary:
      'Sign in with identifier, authKey and a backup code (XXXX-XXXX, with or without the hyphen, any case; ' +
      'each code works once). The answer carries `warningMessage` when 2 or fewer codes remain. A wrong code ' +
      'counts toward the lockout',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'BackupLoginBody',
    success: [
      {
        status: 200,
        description: 'Signed in (refresh cookie set), maybe with warningMessage',
        schema: 'BackupLoginResponse',
        setsCookie: true,
      },
    ],
    errors: [...SIGN_IN_ERRORS, E.INVALID_BACKUP_CODE],
  },
  {
    method: 'post',
    path: '/api/auth/2fa/enable',
    operationId: 'twoFactorEnable',
    summary:
      'Start 2FA setup: a new secret, stored sealed and not active until verified; answers the otpauth URL ' +
      '(issuer Vault, label the e-mail) to show as a QR code. 409 when 2FA is already on',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    body: 'TwoFactorEnableBody',
    success: [{ status: 200, description: 'The otpauth URL', schema: 'TwoFactorEnableResponse' }],
    errors: [E.VALIDATION_FAILED, ...SIGNED_IN_ERRORS, E.CONFLICT],
  },
  {
    method: 'post',
    path: '/api/auth/2fa/verify',
    operationId: 'twoFactorVerify',
    summary:
      `Finish setup with the first code from the app: 2FA is on, and the answer holds ${BACKUP_CODE_COUNT} ` +
      "backup codes (shown once). A wrong code answers 400 'Invalid verification code'; wrong tries are " +
      'limited per user (429)',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'auth',
    body: 'TwoFactorVerifyBody',
    success: [{ status: 200, description: '2FA on, first backup codes', schema: 'BackupCodesResponse' }],
    errors: [E.VALIDATION_FAILED, ...SIGNED_IN_ERRORS, E.CONFLICT, E.RATE_LIMITED],
  },
  {
    method: 'post',
    path: '/api/auth/2fa/disable',
    operationId: 'twoFactorDisable',
    summary:
      'Turn 2FA off with a current code or the authKey (exactly one): the secret and every backup code are ' +
      'deleted. Wrong tries are limited per user (429)',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'auth',
    body: 'TwoFactorProofBody',
    success: [{ status: 204, description: '2FA off' }],
    errors: [
      E.VALIDATION_FAILED,
      ...SIGNED_IN_ERRORS,
      E.INVALID_VERIFICATION_CODE,
      E.INVALID_PASSWORD,
      E.CONFLICT,
      E.RATE_LIMITED,
    ],
  },
  {
    method: 'get',
    path: '/api/auth/2fa/backup-codes',
    operationId: 'backupCodesInfo',
    summary: 'How many backup codes are left, of how many, and when the set was made (null without one)',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Backup codes info', schema: 'BackupCodesInfoResponse' }],
    errors: SIGNED_IN_ERRORS,
  },
  {
    method: 'post',
    path: '/api/auth/2fa/backup-codes/regenerate',
    operationId: 'backupCodesRegenerate',
    summary:
      `A new set of ${BACKUP_CODE_COUNT} backup codes, proven by a current code or the authKey; every ` +
      'earlier code stops working',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'auth',
    body: 'TwoFactorProofBody',
    success: [{ status: 200, description: 'The new codes (shown once)', schema: 'BackupCodesResponse' }],
    errors: [
      E.VALIDATION_FAILED,
      ...SIGNED_IN_ERRORS,
      E.INVALID_VERIFICATION_CODE,
      E.INVALID_PASSWORD,
      E.CONFLICT,
      E.RATE_LIMITED,
    ],
  },
];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

export function twoFactorComponents(): Record<string, Record<string, unknown>> {
  return {
    TwoFactorLoginBody: jsonSchema(twoFactorLoginBodySchema, 'input'),
    BackupLoginBody: jsonSchema(backupLoginBodySchema, 'input'),
    BackupLoginResponse: jsonSchema(
      authResponseSchema.extend({
        warningMessage: z
          .string()
          .optional()
          .describe("e.g. 'You have 2 backup codes left. Generate new ones in Settings.'"),
      }),
      'output',
    ),
    TwoFactorEnableBody: jsonSchema(twoFactorEnableBodySchema, 'input'),
    TwoFactorEnableResponse: jsonSchema(twoFactorEnableResponseSchema, 'output'),
    TwoFactorVerifyBody: jsonSchema(twoFactorVerifyBodySchema, 'input'),
    TwoFactorProofBody: jsonSchema(twoFactorProofBodySchema, 'input'),
    BackupCodesResponse: jsonSchema(backupCodesResponseSchema, 'output'),
    BackupCodesInfoResponse: jsonSchema(backupCodesInfoResponseSchema, 'output'),
  };
}
