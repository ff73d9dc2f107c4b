import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  backupLoginBodySchema,
  ErrorCode,
  loginBodySchema,
  logoutBodySchema,
  preloginBodySchema,
  refreshBodySchema,
  signupBodySchema,
  twoFactorLoginBodySchema,
  type AuthResponse,
  type PreloginResponse,
  type RefreshResponse,
  type WithRefresh,
} from '@vault/contracts';
import { AuthService, type LoginResult } from '../services/auth.service';
import { readBody, readContext } from '@vault/server-kit';

/** Sign-up, sign-in and the refresh cookie's life. Handlers only translate. */
@Controller()
export class AuthHandler {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(AUTH_PATTERNS.prelogin)
  prelogin(@Payload() payload: unknown): Promise<PreloginResponse> {
    readContext(payload);
    return this.auth.prelogin(readBody(preloginBodySchema, payload));
  }

  @MessagePattern(AUTH_PATTERNS.signup)
  signup(@Payload() payload: unknown): Promise<WithRefresh<AuthResponse>> {
    return this.auth.signup(readBody(signupBodySchema, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.login)
  login(@Payload() payload: unknown): Promise<LoginResult> {
    return this.auth.login(readBody(loginBodySchema, payload), readContext(payload));
  }

  /** The sign-in again with the authenticator code (after `{requires2FA: true}`). */
  @MessagePattern(AUTH_PATTERNS.twoFactorLogin)
  twoFactorLogin(@Payload() payload: unknown): Promise<LoginResult> {
    const { code, ...credentials } = readBody(twoFactorLoginBodySchema, payload);
    return this.auth.login(credentials, readContext(payload), { code });
  }

  /** The sign-in again with a backup code; may carry `warningMessage` when few are left. */
  @MessagePattern(AUTH_PATTERNS.backupCodeLogin)
  backupCodeLogin(@Payload() payload: unknown): Promise<LoginResult> {
    const { backupCode, ...credentials } = readBody(backupLoginBodySchema, payload);
    return this.auth.login(credentials, readContext(payload), { backupCode });
  }

  /** A missing or malformed token is a 401 like an unknown one, not a 400. */
  @MessagePattern(AUTH_PATTERNS.refresh)
  refresh(@Payload() payload: unknown): Promise<WithRefresh<RefreshResponse>> {
    const body = readBody(refreshBodySchema, payload, ErrorCode.REFRESH_INVALID);
    return this.auth.refresh(body.refreshToken, readContext(payload));
  }

  /** Answers null ("nothing"): Nest's RPC client completes without a value on undefined. */
  @MessagePattern(AUTH_PATTERNS.logout)
  async logout(@Payload() payload: unknown): Promise<null> {
    const body = readBody(logoutBodySchema, payload);
    await this.auth.logout(readContext(payload), body.refreshToken);
    return null;
  }
}
