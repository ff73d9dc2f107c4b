import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { FILES_REDIS } from './connections';

/** The rescan lock while its run holds it. */
export interface HeldRescanLock {
  /** Extends it by its TTL; false when it was lost (it expired and another run took it). */
  refresh(): Promise<boolean>;
  release(): Promise<void>;
}

// Both act only while the key still holds the run's id: a lock that expired is another run's.
const REFRESH_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * `rescan-all:lock`: at most one rescan of every file at a time, across every files replica. It
 * holds the run's id and expires unless refreshed, so a replica that dies mid-run frees it.
 */
@Injectable()
export class RescanLockRepository {
  static readonly KEY = 'rescan-all:lock';

  constructor(@Inject(FILES_REDIS) private readonly redis: Redis) {}

  /** The lock for `runId`, or null while another run holds it. */
  async acquire(runId: string, ttlMs: number): Promise<HeldRescanLock | null> {
    const key = RescanLockRepository.KEY;
    if ((await this.redis.set(key, runId, 'PX', ttlMs, 'NX')) !== 'OK') return null;
    return {
      refresh: async () => (await this.redis.eval(REFRESH_SCRIPT, 1, key, runId, ttlMs)) === 1,
      release: async () => {
        await this.redis.eval(RELEASE_SCRIPT, 1, key, runId);
      },
    };
  }
}
