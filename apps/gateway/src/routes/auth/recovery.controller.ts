import { Body, Controller, Param, Req, Res } from '@nestjs/common';
import {
  authResponseSchema,
  ErrorCode as E,
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
  type AuthResponse,
  type LegacyKeyIdParam,
  type LegacyKeysResponse,
  type RecoveryEmailCodeBody,
  type RecoveryGetQuestionsBody,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryResetBody,
  type RecoverySetupKeyBody,
  type RecoverySetupQuestionsBody,
  type RecoveryVerifiedResponse,
  type RecoveryVerifyEmailBody,
  type RecoveryVerifyKeyBody,
  type RecoveryVerifyQuestionsBody,
  type RpcContext,
  type SecurityQuestionsResponse,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Route, SIGNED_OUT_CALL } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';

const bypassMinutes = RECOVERY_LIMITS.bypassTtlSeconds / 60;

/**
 * /api/auth recovery, security questions and legacy keys (docs/api.md "Recovery").
 * The signed-out calls count against the per-IP `auth` limit; the auth service adds its own
 * per-address and per-account limits. A reset starts a session like a sign-in (cookie set).
 */
@Controller('auth')
export class RecoveryController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: RefreshCookies,
  ) {}

  @Route('post', 'recovery/email-code', {
    ...SIGNED_OUT_CALL,
    summary:
      `Mail a ${RECOVERY_LIMITS.codeDigits}-digit recovery code (valid ${RECOVERY_LIMITS.codeTtlSeconds / 60} ` +
      'minutes, single use). The same answer, in about the same time, whether or not the address has an ' +
      'account; limited per address and per IP',
    success: [{ description: 'The same message for every address', schema: recoveryMessageResponseSchema }],
  })
  recoveryEmailCode(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryEmailCodeBodySchema)) body: RecoveryEmailCodeBody,
  ): Promise<RecoveryMessageResponse> {
    return this.rpc.call('auth.recovery.email-code', ctx, body);
  }

  @Route('post', 'recovery/verify-email', {
    ...SIGNED_OUT_CALL,
    summary:
      `Trade a live e-mail code for a bypass token (${bypassMinutes} minutes, single use). A code dies after ` +
      `${RECOVERY_LIMITS.codeMaxAttempts} wrong tries`,
    success: [{ description: 'Verified', schema: recoveryVerifiedResponseSchema }],
    errors: [E.INVALID_RECOVERY_CODE],
  })
  recoveryVerifyEmail(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryVerifyEmailBodySchema)) body: RecoveryVerifyEmailBody,
  ): Promise<RecoveryVerifiedResponse> {
    return this.rpc.call('auth.recovery.verify-email', ctx, body);
  }

  @Route('post', 'recovery/setup-key', {
    status: 204,
    limit: 'auth',
    summary:
      'Store (or replace) the recovery key: recoveryAuth (kept as a slow hash) and the vault key sealed under ' +
      'the recovery key. Re-checks authKey',
    success: [{ description: 'Stored' }],
    errors: [E.INVALID_CREDENTIALS],
  })
  async recoverySetupKey(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoverySetupKeyBodySchema)) body: RecoverySetupKeyBody,
  ): Promise<void> {
    await this.rpc.call('auth.recovery.setup-key', ctx, body);
  }

  @Route('post', 'recovery/verify-key', {
    ...SIGNED_OUT_CALL,
    summary:
      'Prove the recovery key: a bypass token and the recovery-wrapped vault key (access and data both come ' +
      'back). Failures are limited per account',
    success: [{ description: 'Verified', schema: recoveryKeyVerifiedResponseSchema }],
    errors: [E.INVALID_RECOVERY_KEY],
  })
  recoveryVerifyKey(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryVerifyKeyBodySchema)) body: RecoveryVerifyKeyBody,
  ): Promise<RecoveryKeyVerifiedResponse> {
    return this.rpc.call('auth.recovery.verify-key', ctx, body);
  }

  @Route('post', 'recovery/setup-questions', {
    status: 204,
    summary:
      'Store 3 security questions (texts only), the answers’ salt and answersAuth (a slow hash); the answers ' +
      'never leave the device',
    success: [{ description: 'Stored (replacing earlier questions)' }],
  })
  async recoverySetupQuestions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoverySetupQuestionsBodySchema)) body: RecoverySetupQuestionsBody,
  ): Promise<void> {
    await this.rpc.call('auth.recovery.setup-questions', ctx, body);
  }

  @Route('get', 'security-questions', {
    summary: 'The caller’s question texts, or an empty list when none are set',
    success: [{ description: 'Questions', schema: securityQuestionsResponseSchema }],
  })
  securityQuestions(@Ctx() ctx: RpcContext): Promise<SecurityQuestionsResponse> {
    return this.rpc.call('auth.recovery.security-questions', ctx, undefined);
  }

  @Route('post', 'recovery/get-questions', {
    ...SIGNED_OUT_CALL,
    summary:
      'The questions of an address with the answers’ salt and the account’s KDF parameters. 404 when none ' +
      '(which tells that an address has questions: the contract’s choice)',
    success: [{ description: 'Questions', schema: recoveryQuestionsResponseSchema }],
    errors: [E.NO_SECURITY_QUESTIONS],
  })
  recoveryGetQuestions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryGetQuestionsBodySchema)) body: RecoveryGetQuestionsBody,
  ): Promise<RecoveryQuestionsResponse> {
    return this.rpc.call('auth.recovery.get-questions', ctx, body);
  }

  @Route('post', 'recovery/verify-questions', {
    ...SIGNED_OUT_CALL,
    summary:
      'Prove the answers (answersAuth): a bypass token (access only). Failures are limited per account',
    success: [{ description: 'Verified', schema: recoveryVerifiedResponseSchema }],
    errors: [E.INCORRECT_ANSWERS],
  })
  recoveryVerifyQuestions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryVerifyQuestionsBodySchema)) body: RecoveryVerifyQuestionsBody,
  ): Promise<RecoveryVerifiedResponse> {
    return this.rpc.call('auth.recovery.verify-questions', ctx, body);
  }

  @Route('post', 'recovery/reset', {
    ...SIGNED_OUT_CALL,
    summary:
      'Set new credentials with a bypass token (used up). newVaultKey: the old wrapped key is kept as a legacy ' +
      'key (only a recovery-key proof may keep the vault key). With 2FA on, code or backupCode is required. ' +
      'Every session is revoked, the lockout cleared, and a new session starts',
    success: [{ description: 'Reset, signed in', schema: authResponseSchema, cookie: 'set' }],
    errors: [E.BYPASS_TOKEN_INVALID, E.INVALID_VERIFICATION_CODE],
  })
  async recoveryReset(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryResetBodySchema)) body: RecoveryResetBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.recovery.reset', ctx, body));
  }

  @Route('get', 'legacy-keys', {
    summary: 'Vault keys from before a reset, newest first, each wrapped under its old password',
    success: [{ description: 'Legacy keys', schema: legacyKeysResponseSchema }],
  })
  listLegacyKeys(@Ctx() ctx: RpcContext): Promise<LegacyKeysResponse> {
    return this.rpc.call('auth.legacy-keys.list', ctx, undefined);
  }

  @Route('delete', 'legacy-keys/:id', {
    status: 204,
    summary: 'Forget a legacy key (its old items can no longer be unlocked)',
    success: [{ description: 'Deleted' }],
  })
  async deleteLegacyKey(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(legacyKeyIdParamSchema)) params: LegacyKeyIdParam,
  ): Promise<void> {
    await this.rpc.call('auth.legacy-keys.delete', ctx, params);
  }
}
