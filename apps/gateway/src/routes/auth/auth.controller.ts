import { Body, Controller, Param, Req, Res } from '@nestjs/common';
import {
  authResponseSchema,
  changePasswordBodySchema,
  ErrorCode as E,
  loginBodySchema,
  meResponseSchema,
  preloginBodySchema,
  preloginResponseSchema,
  refreshResponseSchema,
  sessionIdParamSchema,
  sessionListResponseSchema,
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
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Route, SIGNED_OUT_CALL } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { SIGN_IN_ANSWER } from './sign-in.answer';

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

  @Route('post', 'prelogin', {
    ...SIGNED_OUT_CALL,
    summary: 'KDF salt and parameters for an identifier (a stable fake for unknown ones)',
    success: [{ description: 'Salt and KDF parameters', schema: preloginResponseSchema }],
  })
  prelogin(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(preloginBodySchema)) body: PreloginBody,
  ): Promise<PreloginResponse> {
    return this.rpc.call('auth.prelogin', ctx, body);
  }

  @Route('post', 'signup', {
    ...SIGNED_OUT_CALL,
    status: 201,
    summary: 'Create an account; starts a session',
    success: [{ description: 'Account created, signed in', schema: authResponseSchema, cookie: 'set' }],
    errors: [E.USERNAME_TAKEN, E.EMAIL_TAKEN, E.PHONE_TAKEN],
  })
  async signup(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(signupBodySchema)) body: SignupBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.signup', ctx, body));
  }

  @Route('post', 'login', {
    ...SIGNED_OUT_CALL,
    summary: 'Sign in with identifier and authKey (and a TOTP code when 2FA is on)',
    success: [SIGN_IN_ANSWER],
    errors: [E.INVALID_CREDENTIALS, E.EMERGENCY_VERIFICATION_REQUIRED, E.ACCOUNT_LOCKED],
  })
  async login(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(loginBodySchema)) body: LoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.login', ctx, body));
  }

  @Route('post', 'refresh', {
    ...SIGNED_OUT_CALL,
    refreshCookie: true,
    summary: 'A new access token from the refresh cookie; the cookie rotates',
    success: [
      {
        description: 'New access token; a rotated cookie unless within the grace window',
        schema: refreshResponseSchema,
        cookie: 'set',
      },
    ],
    errors: [E.UNAUTHENTICATED, E.REFRESH_INVALID, E.REFRESH_REUSED],
  })
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

  @Route('post', 'logout', {
    status: 204,
    auth: 'optional',
    summary: 'End the session of the refresh cookie (and of the bearer token, if valid); clears the cookie',
    success: [{ description: 'Signed out, cookie cleared', cookie: 'clear' }],
  })
  async logout(
    @Ctx() ctx: RpcContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const refreshToken = this.cookies.read(req);
    this.cookies.clear(req, reply);
    await this.rpc.call('auth.logout', ctx, refreshToken ? { refreshToken } : {});
  }

  @Route('get', 'me', {
    summary: 'The signed-in user and the material to unlock the vault',
    success: [{ description: 'The caller', schema: meResponseSchema }],
  })
  me(@Ctx() ctx: RpcContext): Promise<MeResponse> {
    return this.rpc.call('auth.me', ctx, undefined);
  }

  @Route('post', 'change-password', {
    status: 204,
    summary: 'Replace the authKey and the wrapped vault key; other sessions are revoked',
    success: [{ description: 'Changed' }],
    errors: [E.INVALID_CREDENTIALS],
  })
  async changePassword(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(changePasswordBodySchema)) body: ChangePasswordBody,
  ): Promise<void> {
    await this.rpc.call('auth.change-password', ctx, body);
  }

  @Route('get', 'sessions', {
    summary: "The caller's own sessions (devices)",
    success: [{ description: 'Sessions', schema: sessionListResponseSchema }],
  })
  listSessions(@Ctx() ctx: RpcContext): Promise<SessionListResponse> {
    return this.rpc.call('auth.sessions.list', ctx, undefined);
  }

  @Route('delete', 'sessions/:id', {
    status: 204,
    summary: "End one of the caller's sessions",
    success: [{ description: 'Session ended' }],
  })
  async revokeSession(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(sessionIdParamSchema)) params: SessionIdParam,
  ): Promise<void> {
    await this.rpc.call('auth.sessions.revoke', ctx, params);
  }
}
