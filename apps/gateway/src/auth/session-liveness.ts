import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, VaultError } from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import type Redis from 'ioredis';
import { REDIS } from '../redis/redis.token';

/**
 * Session liveness (docs/architecture.md "How the parts talk"): auth owns `sess:{sid}`; the
 * gateway only asks whether it still exists, one O(1) EXISTS per authenticated request. A revoked
 * session's token is refused at once, not when it expires.
 */
@Injectable()
export class SessionLiveness {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async isLive(sessionId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(redisKeys.session(sessionId))) === 1;
    } catch {
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
  }
}
