import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  changePasswordBodySchema,
  loginBodySchema,
  preloginBodySchema,
  sessionIdParamSchema,
  signupBodySchema,
  type AuthResponse,
  type ChangePasswordBody,
  type LoginBody,
  type MeResponse,
  type PreloginBody,
  type PreloginResponse,
  type RefreshResponse,
  type Requires2faResponse,
  type RpcContext,
  type SessionIdParam,
  type SessionListResponse,
  type SignupBody,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OptionalAuth, Public } from '../../auth/auth.decorators';
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { RateLimit } from '../../security/rate-limit.decorator';
import { zodPipe } from '../../validation/zod.pipe';

/**
 * /api/auth (docs/api.md "Account and sessions"). Each handler only translates: validated body
 * and caller context in, the auth service's answer out, refresh grants turned into the cookie.
 */
@Controller('auth')
export class AuthController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: RefreshCookies,
  ) {}

  @Post('prelogin')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  prelogin(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(preloginBodySchema)) body: PreloginBody,
  ): Promise<PreloginResponse> {
    return this.rpc.call('auth.prelogin', ctx, body);
  }

  @Post('signup')
  @Public()
  @RateLimit('auth')
  @HttpCode(201)
  async signup(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(signupBodySchema)) body: SignupBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.signup', ctx, body));
  }

  @Post('login')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  async login(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(loginBodySchema)) body: LoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.login', ctx, body));
  }

  @Post('refresh')
  @Public()
  @RateLimit('auth')
  @HttpCode(200)
  async refresh(
    @Ctx() ctx: RpcContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RefreshResponse> {
    return this.cookies.apply(
      req,
      reply,
      await this.rpc.call('auth.refresh', ctx, { refreshToken: this.cookies.require(req) }),
    );
  }

  @Post('logout')
  @OptionalAuth()
  @HttpCode(204)
  async logout(
    @Ctx() ctx: RpcContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const refreshToken = this.cookies.read(req);
    this.cookies.clear(req, reply);
    await this.rpc.call('auth.logout', ctx, refreshToken ? { refreshToken } : {});
  }

  @Get('me')
  me(@Ctx() ctx: RpcContext): Promise<MeResponse> {
    return this.rpc.call('auth.me', ctx, undefined);
  }

  @Post('change-password')
  @HttpCode(204)
  async changePassword(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(changePasswordBodySchema)) body: ChangePasswordBody,
  ): Promise<void> {
    await this.rpc.call('auth.change-password', ctx, body);
  }

  @Get('sessions')
  listSessions(@Ctx() ctx: RpcContext): Promise<SessionListResponse> {
    return this.rpc.call('auth.sessions.list', ctx, undefined);
  }

  @Delete('sessions/:id')
  @HttpCode(204)
  async revokeSession(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(sessionIdParamSchema)) params: SessionIdParam,
  ): Promise<void> {
    await this.rpc.call('auth.sessions.revoke', ctx, params);
  }
}
