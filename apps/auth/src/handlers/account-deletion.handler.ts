import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS, ErrorCode } from '@vault/contracts';
import { readRpcBody } from '@vault/server-kit';
import { AccountDeletionService } from '../services/account-deletion.service';
import { SessionService } from '../services/session.service';

@Controller()
export class AccountDeletionHandler {
  constructor(
    private readonly deletion: AccountDeletionService,
    private readonly sessions: SessionService,
  ) {}

  /** Answers null ("nothing"); a malformed key reads as a wrong one. */
  @MessagePattern(AUTH_PATTERNS.deleteAccount)
  async deleteAccount(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    const { authKey } = readRpcBody(AUTH_PATTERNS.deleteAccount, payload, ErrorCode.INVALID_PASSWORD);
    await this.deletion.deleteAccount(auth, authKey, ctx);
    return null;
  }
}
