import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  backupLoginBodySchema,
  twoFactorEnableBodySchema,
  twoFactorLoginBodySchema,
  twoFactorProofBodySchema,
  twoFactorVerifyBodySchema,
  type AuthResponse,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type BackupLoginBody,
  type Requires2faResponse,
  type RpcContext,
  type TwoFactorEnableBody,
  type TwoFactorEnableResponse,
  type TwoFactorLoginBody,
  type TwoFactorProofBody,
  type TwoFactorVerifyBody,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/auth.decorators';
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { RateLimit } from '../../security/rate-limit.decorator';
import { zodPipe } from '../../validation/zod.pipe';

/**
 * /api/auth/2fa (docs/api.md "Two-step verification"): the second sign-in step and the
 * signed-in user's 2FA settings. Routes that take a code or a key count against the `auth`
 * rate limit, like the sign-in itself.
 */
@Controller('auth/2fa')
export class TwoFactorController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: RefreshCookies,
  ) {}

  /** Sign-in with the authenticator code: the same answer and cookie as /api/auth/login. */
  @Post('login')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  async login(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorLoginBodySchema)) body: TwoFactorLoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.2fa.login', ctx, body));
  }

  /** Sign-in with a backup code; `warningMessage` when 2 or fewer codes remain. */
  @Post('backup-login')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  async backupLogin(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(backupLoginBodySchema)) body: BackupLoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.2fa.backup-login', ctx, body));
  }

  /** The contract's body is `{}`; a request with no body at all is taken as that too. */
  @Post('enable')
  @HttpCode(200)
  enable(@Ctx() ctx: RpcContext, @Body() raw: unknown): Promise<TwoFactorEnableResponse> {
    const body: TwoFactorEnableBody =
      raw === undefined ? {} : zodPipe(twoFactorEnableBodySchema).transform(raw);
    return this.rpc.call('auth.2fa.enable', ctx, body);
  }

  @Post('verify')
  @RateLimit('auth')
  @HttpCode(200)
  verify(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorVerifyBodySchema)) body: TwoFactorVerifyBody,
  ): Promise<BackupCodesResponse> {
    return this.rpc.call('auth.2fa.verify', ctx, body);
  }

  @Post('disable')
  @RateLimit('auth')
  @HttpCode(204)
  async disable(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorProofBodySchema)) body: TwoFactorProofBody,
  ): Promise<void> {
    await this.rpc.call('auth.2fa.disable', ctx, body);
  }

  @Get('backup-codes')
  backupCodes(@Ctx() ctx: RpcContext): Promise<BackupCodesInfoResponse> {
    return this.rpc.call('auth.2fa.backup-codes', ctx, undefined);
  }

  @Post('backup-codes/regenerate')
  @RateLimit('auth')
  @HttpCode(200)
  regenerate(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorProofBodySchema)) body: TwoFactorProofBody,
  ): Promise<BackupCodesResponse> {
    return this.rpc.call('auth.2fa.backup-codes.regenerate', ctx, body);
  }
}
