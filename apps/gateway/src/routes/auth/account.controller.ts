import { Body, Controller, Query, Req, Res } from '@nestjs/common';
import {
  accountSettingsSchema,
  deleteAccountBodySchema,
  ErrorCode as E,
  ownEventListSchema,
  ownEventsQuerySchema,
  verifyEmergencyBodySchema,
  type AccountSettings,
  type AuthResponse,
  type DeleteAccountBody,
  type OwnEventList,
  type OwnEventsQuery,
  type Requires2faResponse,
  type RpcContext,
  type VerifyEmergencyBody,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Route, SIGNED_OUT_CALL } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { SIGN_IN_ANSWER } from './sign-in.answer';

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

  @Route('get', 'settings', {
    summary: "The caller's settings (the malware-fingerprint opt-in)",
    success: [{ description: 'Settings', schema: accountSettingsSchema }],
  })
  getSettings(@Ctx() ctx: RpcContext): Promise<AccountSettings> {
    return this.rpc.call('auth.settings.get', ctx, undefined);
  }

  @Route('get', 'security-events', {
    summary:
      "The caller's own security events, newest first (sign-ins, changes, what an administrator did), " +
      'paged with an opaque cursor',
    success: [
      {
        description: 'One page of events and the next cursor (null on the last page)',
        schema: ownEventListSchema,
      },
    ],
  })
  securityEvents(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(ownEventsQuerySchema)) query: OwnEventsQuery,
  ): Promise<OwnEventList> {
    return this.rpc.call('auth.security-events.list', ctx, query);
  }

  @Route('put', 'settings', {
    status: 200,
    summary:
      'Change the settings. malwareFingerprintCheck: the client then sends the SHA-256 of each upload’s ' +
      'plaintext with upload-complete, for a lookup in known-malware hash signatures',
    success: [{ description: 'The stored settings', schema: accountSettingsSchema }],
  })
  updateSettings(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(accountSettingsSchema)) body: AccountSettings,
  ): Promise<AccountSettings> {
    return this.rpc.call('auth.settings.update', ctx, body);
  }

  /** The `auth` rate limit: a wrong key here does not lock the account, so the limit is the brake. */
  @Route('delete', 'account', {
    status: 204,
    limit: 'auth',
    summary:
      'Delete the account (authKey re-checked): every session ends now; notes, files and stored objects ' +
      'are purged by background jobs; clears the refresh cookie',
    success: [{ description: 'Account deleted, cookie cleared', cookie: 'clear' }],
    errors: [E.INVALID_PASSWORD],
  })
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

  @Route('post', 'verify-emergency', {
    ...SIGNED_OUT_CALL,
    summary:
      "Sign in after a 418: the account's username and phone number along with the authKey; the device " +
      'becomes known. Failures count toward the lockout',
    success: [SIGN_IN_ANSWER],
    errors: [E.EMERGENCY_VERIFICATION_FAILED, E.ACCOUNT_LOCKED],
  })
  async verifyEmergency(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(verifyEmergencyBodySchema)) body: VerifyEmergencyBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.verify-emergency', ctx, body));
  }
}
