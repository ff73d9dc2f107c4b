import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { SecurityEventEntity, type SecurityEventType } from '../entities/security-event.entity';
import { AUTH_REDIS } from './connections';

/** Failed sign-in attempts, as the security-event log records them. */
export const FAILED_SIGNIN_EVENTS: SecurityEventType[] = ['signin_failure', 'emergency_verification_failed'];

/**
 * The facts the unusual-activity rule reads: the account's known devices (a Redis set of
 * device fingerprints, `known-dev:{userId}`, renewed at each sign-in) and its recent failed
 * sign-ins (the security-event log, which the lockout's own counter does not keep in time).
 */
@Injectable()
export class UnusualActivityRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(AUTH_REDIS) private readonly redis: Redis,
  ) {}

  private static key(userId: string): string {
    return `known-dev:${userId}`;
  }

  /** Whether the fingerprint is known, and how many devices the account knows at all. */
  async deviceState(userId: string, fingerprint: string): Promise<{ known: boolean; count: number }> {
    const key = UnusualActivityRepository.key(userId);
    const [known, count] = await Promise.all([this.redis.sismember(key, fingerprint), this.redis.scard(key)]);
    return { known: known === 1, count };
  }

  async addDevice(userId: string, fingerprint: string, ttlSeconds: number): Promise<void> {
    const key = UnusualActivityRepository.key(userId);
    await this.redis.multi().sadd(key, fingerprint).expire(key, ttlSeconds).exec();
  }

  async forgetDevices(userId: string): Promise<void> {
    await this.redis.del(UnusualActivityRepository.key(userId));
  }

  async countFailuresSince(userId: string, since: Date): Promise<number> {
    return this.dataSource
      .getRepository(SecurityEventEntity)
      .createQueryBuilder('e')
      .where('e.user_id = :userId', { userId })
      .andWhere('e.event_type IN (:...types)', { types: FAILED_SIGNIN_EVENTS })
      .andWhere('e.created_at > :since', { since })
      .getCount();
  }
}
