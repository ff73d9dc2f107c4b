import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '@vault/server-kit';
import type Redis from 'ioredis';
import { NOTES_REDIS } from './connections';

/** Reads auth's session hashes (`sess:{sid}`, owned by auth); never writes them. */
@Injectable()
export class SessionsRepository {
  constructor(@Inject(NOTES_REDIS) private readonly redis: Redis) {}

  /** The user a live session belongs to, or null when the session does not exist (any more). */
  async ownerOf(sessionId: string): Promise<string | null> {
    return this.redis.hget(redisKeys.session(sessionId), 'userId');
  }
}
