import { Body, Controller, Req, Res } from '@nestjs/common';
import {
  BACKUP_CODE_COUNT,
  backupCodesInfoResponseSchema,
  backupCodesResponseSchema,
  backupLoginBodySchema,
  backupLoginResponseSchema,
  authResponseSchema,
  ErrorCode as E,
  twoFactorEnableBodySchema,
  twoFactorEnableResponseSchema,
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
import { RefreshCookies } from '../../auth/refresh-cookie';
import { Route, SIGNED_OUT_CALL } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';

const SIGN_IN_ERRORS = [
  E.INVALID_CREDENTIALS,
  E.EMERGENCY_VERIFICATION_REQUIRED,
  E.ACCOUNT_LOCKED,
  E.RATE_LIMITED,
];
/** What a proof of the second factor (a current code or the authKey) may fail with. */
const PROOF_ERRORS = [E.INVALID_VERIFICATION_CODE, E.INVALID_PASSWORD, E.CONFLICT, E.RATE_LIMITED];

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
  @Route('post', 'login', {
    ...SIGNED_OUT_CALL,
    summary:
      'Sign in with identifier, authKey and a 6-digit authenticator code (RFC 6238, ±1 step, each code ' +
      'accepted once). A wrong code counts toward the lockout like a wrong key. On an account without 2FA ' +
      'the code is not needed',
    success: [{ description: 'Signed in (refresh cookie set)', schema: authResponseSchema, cookie: 'set' }],
    errors: [...SIGN_IN_ERRORS, E.INVALID_VERIFICATION_CODE],
  })
  async twoFactorLogin(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorLoginBodySchema)) body: TwoFactorLoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.2fa.login', ctx, body));
  }

  /** Sign-in with a backup code; `warningMessage` when 2 or fewer codes remain. */
  @Route('post', 'backup-login', {
    ...SIGNED_OUT_CALL,
    summary:
      'Sign in with identifier, authKey and a backup code (XXXX-XXXX, with or without the hyphen, any case; ' +
      'each code works once). The answer carries `warningMessage` when 2 or fewer codes remain. A wrong code ' +
      'counts toward the lockout',
    success: [
      {
        description: 'Signed in (refresh cookie set), maybe with warningMessage',
        schema: backupLoginResponseSchema,
        cookie: 'set',
      },
    ],
    errors: [...SIGN_IN_ERRORS, E.INVALID_BACKUP_CODE],
  })
  async backupCodeLogin(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(backupLoginBodySchema)) body: BackupLoginBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse | Requires2faResponse> {
    return this.cookies.apply(req, reply, await this.rpc.call('auth.2fa.backup-login', ctx, body));
  }

  /** The contract's body is `{}`; a request with no body at all is taken as that too. */
  @Route('post', 'enable', {
    status: 200,
    summary:
      'Start 2FA setup: a new secret, stored sealed and not active until verified; answers the otpauth URL ' +
      '(issuer Vault, label the e-mail) to show as a QR code. 409 when 2FA is already on',
    body: twoFactorEnableBodySchema,
    success: [{ description: 'The otpauth URL', schema: twoFactorEnableResponseSchema }],
    errors: [E.CONFLICT],
  })
  twoFactorEnable(@Ctx() ctx: RpcContext, @Body() raw: unknown): Promise<TwoFactorEnableResponse> {
    const body: TwoFactorEnableBody =
      raw === undefined ? {} : zodPipe(twoFactorEnableBodySchema).transform(raw);
    return this.rpc.call('auth.2fa.enable', ctx, body);
  }

  @Route('post', 'verify', {
    status: 200,
    limit: 'auth',
    summary:
      `Finish setup with the first code from the app: 2FA is on, and the answer holds ${BACKUP_CODE_COUNT} ` +
      "backup codes (shown once). A wrong code answers 400 'Invalid verification code'; wrong tries are " +
      'limited per user (429)',
    success: [{ description: '2FA on, first backup codes', schema: backupCodesResponseSchema }],
    errors: [E.CONFLICT, E.RATE_LIMITED],
  })
  twoFactorVerify(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorVerifyBodySchema)) body: TwoFactorVerifyBody,
  ): Promise<BackupCodesResponse> {
    return this.rpc.call('auth.2fa.verify', ctx, body);
  }

  @Route('post', 'disable', {
    status: 204,
    limit: 'auth',
    summary:
      'Turn 2FA off with a current code or the authKey (exactly one): the secret and every backup code are ' +
      'deleted. Wrong tries are limited per user (429)',
    success: [{ description: '2FA off' }],
    errors: PROOF_ERRORS,
  })
  async twoFactorDisable(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorProofBodySchema)) body: TwoFactorProofBody,
  ): Promise<void> {
    await this.rpc.call('auth.2fa.disable', ctx, body);
  }

  @Route('get', 'backup-codes', {
    summary: 'How many backup codes are left, of how many, and when the set was made (null without one)',
    success: [{ description: 'Backup codes info', schema: backupCodesInfoResponseSchema }],
  })
  backupCodesInfo(@Ctx() ctx: RpcContext): Promise<BackupCodesInfoResponse> {
    return this.rpc.call('auth.2fa.backup-codes', ctx, undefined);
  }

  @Route('post', 'backup-codes/regenerate', {
    status: 200,
    limit: 'auth',
    summary:
      `A new set of ${BACKUP_CODE_COUNT} backup codes, proven by a current code or the authKey; every ` +
      'earlier code stops working',
    success: [{ description: 'The new codes (shown once)', schema: backupCodesResponseSchema }],
    errors: PROOF_ERRORS,
  })
  backupCodesRegenerate(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(twoFactorProofBodySchema)) body: TwoFactorProofBody,
  ): Promise<BackupCodesResponse> {
    return this.rpc.call('auth.2fa.backup-codes.regenerate', ctx, body);
  }
}
