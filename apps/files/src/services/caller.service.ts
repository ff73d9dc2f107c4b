import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RpcAuth } from '@vault/contracts';
import { assertLiveCaller } from '@vault/server-kit';
import type Redis from 'ioredis';
import { FILES_REDIS } from '../repositories/connections';

/**
 * Who is calling: the gateway has verified the access token and the session already; this
 * re-checks (defence in depth) that the session still exists and belongs to the user the
 * context names (auth's `sess:{sid}` hash, read only).
 */
@Injectable()
export class CallerService {
  private readonly logger = new Logger(CallerService.name);

  constructor(@Inject(FILES_REDIS) private readonly redis: Redis) {}

  assertAlive(auth: RpcAuth | undefined): Promise<RpcAuth> {
    return assertLiveCaller(this.redis, auth, (error) =>
      this.logger.warn(`Session check failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
