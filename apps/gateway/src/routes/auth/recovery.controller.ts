import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  legacyKeyIdParamSchema,
  recoveryEmailCodeBodySchema,
  recoveryGetQuestionsBodySchema,
  recoveryResetBodySchema,
  recoverySetupKeyBodySchema,
  recoverySetupQuestionsBodySchema,
  recoveryVerifyEmailBodySchema,
  recoveryVerifyKeyBodySchema,
  recoveryVerifyQuestionsBodySchema,
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
import { Public } from '../../auth/auth.decorators';
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { RateLimit } from '../../security/rate-limit.decorator';
import { zodPipe } from '../../validation/zod.pipe';

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

  @Post('recovery/email-code')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  emailCode(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryEmailCodeBodySchema)) body: RecoveryEmailCodeBody,
  ): Promise<RecoveryMessageResponse> {
    return this.rpc.call('auth.recovery.email-code', ctx, body);
  }

  @Post('recovery/verify-email')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  verifyEmail(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryVerifyEmailBodySchema)) body: RecoveryVerifyEmailBody,
  ): Promise<RecoveryVerifiedResponse> {
    return this.rpc.call('auth.recovery.verify-email', ctx, body);
  }

  @Post('recovery/setup-key')
  @RateLimit('auth')
  @HttpCode(204)
  async setupKey(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoverySetupKeyBodySchema)) body: RecoverySetupKeyBody,
  ): Promise<void> {
    await this.rpc.call('auth.recovery.setup-key', ctx, body);
  }

  @Post('recovery/verify-key')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  verifyKey(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryVerifyKeyBodySchema)) body: RecoveryVerifyKeyBody,
  ): Promise<RecoveryKeyVerifiedResponse> {
    return this.rpc.call('auth.recovery.verify-key', ctx, body);
  }

  @Post('recovery/setup-questions')
  @HttpCode(204)
  async setupQuestions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoverySetupQuestionsBodySchema)) body: RecoverySetupQuestionsBody,
  ): Promise<void> {
    await this.rpc.call('auth.recovery.setup-questions', ctx, body);
  }

  @Get('security-questions')
  securityQuestions(@Ctx() ctx: RpcContext): Promise<SecurityQuestionsResponse> {
    return this.rpc.call('auth.recovery.security-questions', ctx, undefined);
  }

  @Post('recovery/get-questions')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  getQuestions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryGetQuestionsBodySchema)) body: RecoveryGetQuestionsBody,
  ): Promise<RecoveryQuestionsResponse> {
    return this.rpc.call('auth.recovery.get-questions', ctx, body);
  }

  @Post('recovery/verify-questions')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  verifyQuestions(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryVerifyQuestionsBodySchema)) body: RecoveryVerifyQuestionsBody,
  ): Promise<RecoveryVerifiedResponse> {
    return this.rpc.call('auth.recovery.verify-questions', ctx, body);
  }

  @Post('recovery/reset')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  async reset(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(recoveryResetBodySchema)) body: RecoveryResetBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.recovery.reset', ctx, body));
  }

  @Get('legacy-keys')
  listLegacyKeys(@Ctx() ctx: RpcContext): Promise<LegacyKeysResponse> {
    return this.rpc.call('auth.legacy-keys.list', ctx, undefined);
  }

  @Delete('legacy-keys/:id')
  @HttpCode(204)
  async deleteLegacyKey(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(legacyKeyIdParamSchema)) params: LegacyKeyIdParam,
  ): Promise<void> {
    await this.rpc.call('auth.legacy-keys.delete', ctx, params);
  }
}
