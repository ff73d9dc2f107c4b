import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS, ErrorCode, type MeResponse } from '@vault/contracts';
import { AccountService } from '../services/account.service';
import { SessionService } from '../services/session.service';
import { readRpcBody } from '@vault/server-kit';

@Controller()
export class AccountHandler {
  constructor(
    private readonly account: AccountService,
    private readonly sessions: SessionService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.me)
  async me(@Payload() payload: unknown): Promise<MeResponse> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.account.me(auth);
  }

  @MessagePattern(AUTH_PATTERNS.changePassword)
  async changePassword(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    await this.account.changePassword(auth, readRpcBody(AUTH_PATTERNS.changePassword, payload), ctx);
    return null;
  }

  /** File download/preview re-check; a malformed key reads as a wrong one. */
  @MessagePattern(AUTH_PATTERNS.verifyAuthKey)
  async verifyAuthKey(@Payload() payload: unknown): Promise<{ ok: true }> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    const { authKey } = readRpcBody(AUTH_PATTERNS.verifyAuthKey, payload, ErrorCode.INVALID_PASSWORD);
    return this.account.verifyAuthKey(auth, authKey, ctx);
  }
}
