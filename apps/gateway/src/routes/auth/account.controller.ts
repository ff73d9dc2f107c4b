import { Body, Controller, Delete, Get, HttpCode, Post, Put, Req, Res } from '@nestjs/common';
import {
  accountSettingsSchema,
  deleteAccountBodySchema,
  verifyEmergencyBodySchema,
  type AccountSettings,
  type AuthResponse,
  type DeleteAccountBody,
  type Requires2faResponse,
  type RpcContext,
  type VerifyEmergencyBody,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/auth.decorators';
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { RateLimit } from '../../security/rate-limit.decorator';
import { zodPipe } from '../../validation/zod.pipe';

/**
 * /api/auth account-level calls: the account's settings, deleting the account, and the emergency
 * verification that follows a 418 at sign-in (docs/api.md "Account and sessions"). Handlers only
 * translate.
 */
@Controller('auth')
export class AccountController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: RefreshCookies,
  ) {}

  @Get('settings')
  getSettings(@Ctx() ctx: RpcContext): Promise<AccountSettings> {
    return this.rpc.call('auth.settings.get', ctx, undefined);
  }

  @Put('settings')
  @HttpCode(200)
  updateSettings(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(accountSettingsSchema)) body: AccountSettings,
  ): Promise<AccountSettings> {
    return this.rpc.call('auth.settings.update', ctx, body);
  }

  /** The `auth` rate limit: a wrong key here does not lock the account, so the limit is the brake. */
  @Delete('account')
  @RateLimit('auth')
  @HttpCode(204)
  async deleteAccount(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(deleteAccountBodySchema)) body: DeleteAccountBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.rpc.call('auth.delete-account', ctx, body);
    // Every session is gone with the account: the browser's cookie has nothing left to refresh.
    this.cookies.clear(req, reply);
  }

  @Post('verify-emergency')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  async verifyEmergency(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(verifyEmergencyBodySchema)) body: VerifyEmergencyBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.verify-emergency', ctx, body));
  }
}
