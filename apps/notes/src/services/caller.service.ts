import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, VaultError, type RpcAuth } from '@vault/contracts';
import { SessionsRepository } from '../repositories/sessions.repository';

/**
 * Who is calling. The gateway has verified the access token and the session already; this
 * re-checks (defence in depth, as auth does) that the session still exists and belongs to the
 * user the context names, so a forged context needs a live session id of that very user.
 */
@Injectable()
export class CallerService {
  private readonly logger = new Logger(CallerService.name);

  constructor(private readonly sessions: SessionsRepository) {}

  async assertAlive(auth: RpcAuth | undefined): Promise<RpcAuth> {
    if (!auth) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    let owner: string | null;
    try {
      owner = await this.sessions.ownerOf(auth.sessionId);
    } catch (error) {
      this.logger.warn(`Session check failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
    if (owner !== auth.userId) throw new VaultError(ErrorCode.SESSION_REVOKED);
    return auth;
  }
}
