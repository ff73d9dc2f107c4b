import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  ErrorCode,
  type AuthResponse,
  type PreloginResponse,
  type RefreshResponse,
  type WithRefresh,
} from '@vault/contracts';
import { AuthService, type LoginResult } from '../services/auth.service';
import { readContext, readRpcBody } from '@vault/server-kit';

/** Sign-up, sign-in and the refresh cookie's life. Handlers only translate. */
@Controller()
export class AuthHandler {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(AUTH_PATTERNS.prelogin)
  prelogin(@Payload() payload: unknown): Promise<PreloginResponse> {
    readContext(payload);
    return this.auth.prelogin(readRpcBody(AUTH_PATTERNS.prelogin, payload));
  }

  @MessagePattern(AUTH_PATTERNS.signup)
  signup(@Payload() payload: unknown): Promise<WithRefresh<AuthResponse>> {
    return this.auth.signup(readRpcBody(AUTH_PATTERNS.signup, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.login)
  login(@Payload() payload: unknown): Promise<LoginResult> {
    return this.auth.login(readRpcBody(AUTH_PATTERNS.login, payload), readContext(payload));
  }

  /** The sign-in again with the authenticator code (after `{requires2FA: true}`). */
  @MessagePattern(AUTH_PATTERNS.twoFactorLogin)
  twoFactorLogin(@Payload() payload: unknown): Promise<LoginResult> {
    const { code, ...credentials } = readRpcBody(AUTH_PATTERNS.twoFactorLogin, payload);
    return this.auth.login(credentials, readContext(payload), { code });
  }

  /** The sign-in again with a backup code; may carry `warningMessage` when few are left. */
  @MessagePattern(AUTH_PATTERNS.backupCodeLogin)
  backupCodeLogin(@Payload() payload: unknown): Promise<LoginResult> {
    const { backupCode, ...credentials } = readRpcBody(AUTH_PATTERNS.backupCodeLogin, payload);
    return this.auth.login(credentials, readContext(payload), { backupCode });
  }

  /** A missing or malformed token is a 401 like an unknown one, not a 400. */
  @MessagePattern(AUTH_PATTERNS.refresh)
  refresh(@Payload() payload: unknown): Promise<WithRefresh<RefreshResponse>> {
    const body = readRpcBody(AUTH_PATTERNS.refresh, payload, ErrorCode.REFRESH_INVALID);
    return this.auth.refresh(body.refreshToken, readContext(payload));
  }

  /** Answers null ("nothing"): Nest's RPC client completes without a value on undefined. */
  @MessagePattern(AUTH_PATTERNS.logout)
  async logout(@Payload() payload: unknown): Promise<null> {
    const body = readRpcBody(AUTH_PATTERNS.logout, payload);
    await this.auth.logout(readContext(payload), body.refreshToken);
    return null;
  }
}
