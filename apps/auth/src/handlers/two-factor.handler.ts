import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type TwoFactorEnableResponse,
} from '@vault/contracts';
import { readRpcBody } from '@vault/server-kit';
import { SessionService } from '../services/session.service';
import { TwoFactorService } from '../services/two-factor.service';

/**
 * The signed-in user's 2FA settings (enable, verify, disable, backup codes). The sign-in
 * with a second factor lives in AuthHandler, beside the plain sign-in.
 */
@Controller()
export class TwoFactorHandler {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly sessions: SessionService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.twoFactorEnable)
  async enable(@Payload() payload: unknown): Promise<TwoFactorEnableResponse> {
    const { auth } = await this.sessions.signedIn(payload);
    readRpcBody(AUTH_PATTERNS.twoFactorEnable, payload);
    return this.twoFactor.enable(auth);
  }

  @MessagePattern(AUTH_PATTERNS.twoFactorVerify)
  async verify(@Payload() payload: unknown): Promise<BackupCodesResponse> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    return this.twoFactor.verify(auth, readRpcBody(AUTH_PATTERNS.twoFactorVerify, payload), ctx);
  }

  @MessagePattern(AUTH_PATTERNS.twoFactorDisable)
  async disable(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    await this.twoFactor.disable(auth, readRpcBody(AUTH_PATTERNS.twoFactorDisable, payload), ctx);
    return null;
  }

  @MessagePattern(AUTH_PATTERNS.backupCodesInfo)
  async backupCodesInfo(@Payload() payload: unknown): Promise<BackupCodesInfoResponse> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.twoFactor.backupCodesInfo(auth);
  }

  @MessagePattern(AUTH_PATTERNS.backupCodesRegenerate)
  async regenerate(@Payload() payload: unknown): Promise<BackupCodesResponse> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    return this.twoFactor.regenerate(auth, readRpcBody(AUTH_PATTERNS.backupCodesRegenerate, payload), ctx);
  }
}
