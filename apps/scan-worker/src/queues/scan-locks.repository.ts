import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { SCAN_REDIS } from './connections';

export interface HeldLock {
  release(): Promise<void>;
}

/** Deletes the key only while it still holds our token (a lock that expired is someone else's). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** `scan-lock:{fileId}`: at most one scan of a file at a time, across every worker replica. */
@Injectable()
export class ScanLocksRepository {
  constructor(@Inject(SCAN_REDIS) private readonly redis: Redis) {}

  static key(fileId: string): string {
    return `scan-lock:${fileId}`;
  }

  /** The lock, or null when another scan of the file holds it. */
  async acquire(fileId: string, ttlMs: number): Promise<HeldLock | null> {
    const key = ScanLocksRepository.key(fileId);
    const token = randomBytes(16).toString('hex');
    const taken = await this.redis.set(key, token, 'PX', ttlMs, 'NX');
    if (taken !== 'OK') return null;
    return {
      release: async () => {
        await this.redis.eval(RELEASE_SCRIPT, 1, key, token);
      },
    };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
}
