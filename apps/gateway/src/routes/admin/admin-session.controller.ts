import { Body, Controller, Req, Res } from '@nestjs/common';
import {
  adminSessionResponseSchema,
  ErrorCode as E,
  loginBodySchema,
  requires2faResponseSchema,
  type AdminSessionResponse,
  type AdminSignInReply,
  type LoginBody,
  type RpcContext,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminCookies } from '../../auth/admin-cookie';
import { AdminOnly } from '../../auth/admin.decorators';
import { Route, SIGNED_OUT_CALL } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';

/**
 * /api/admin/session (docs/api.md "Admin sign-in"): the console's sign-in, its session and its
 * sign-out. The session is an HttpOnly cookie, never a bearer token; auth keeps it.
 */
@Controller('admin/session')
export class AdminSessionController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cookies: AdminCookies,
  ) {}

  @Route('post', undefined, {
    ...SIGNED_OUT_CALL,
    summary: 'Admin sign-in: identifier, authKey and the TOTP code (2FA is required for admins)',
    success: [
      {
        description: 'Signed in (admin cookie set), or the TOTP code is needed (no cookie)',
        schema: [adminSessionResponseSchema, requires2faResponseSchema],
        cookie: 'admin-set',
      },
    ],
    errors: [
      E.INVALID_CREDENTIALS,
      E.INVALID_VERIFICATION_CODE,
      E.ADMIN_REQUIRED,
      E.ADMIN_2FA_REQUIRED,
      E.FORBIDDEN,
      E.ACCOUNT_LOCKED,
    ],
  })
  async signIn(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(loginBodySchema)) body: LoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminSignInReply['body']> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.admin.sign-in', ctx, body));
  }

  @Route('get', undefined, {
    summary: 'The signed-in admin (role and permissions as stored now) and when the session ends',
    success: [
      { description: 'The admin session; its idle end moved on', schema: adminSessionResponseSchema },
    ],
  })
  @AdminOnly('session')
  session(@Req() req: FastifyRequest): AdminSessionResponse | undefined {
    // AdminGuard has just checked the session with auth: its answer is the reply.
    return req.adminSession;
  }

  @Route('delete', undefined, {
    status: 204,
    auth: 'public',
    summary: 'Admin sign-out: ends the session of the admin cookie (if any) and clears the cookie',
    success: [{ description: 'Signed out, cookie cleared', cookie: 'admin-clear' }],
    errors: [E.FORBIDDEN],
  })
  async signOut(
    @Ctx() ctx: RpcContext,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const token = this.cookies.read(req);
    this.cookies.clear(req, reply);
    if (token) await this.rpc.call('auth.admin.sign-out', ctx, { token });
  }
}
