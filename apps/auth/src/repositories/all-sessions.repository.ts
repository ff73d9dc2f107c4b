import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { AUTH_REDIS } from './connections';
import { ALL_SESSIONS_KEY, SessionsRepository, type SessionRecord } from './sessions.repository';

/** A position in the newest-first order: the last session a page showed. */
export interface SessionPosition {
  expiresAt: number;
  id: string;
}

/** Rounds of refilling a page that stale entries thinned (each round prunes what it found). */
const MAX_ROUNDS = 5;

/**
 * The admin console's view of every session: `sess-all` (sessions.repository.ts), a sorted set
 * of session ids scored by expiresAt. A session's life is fixed at sign-in (REFRESH_TTL_SECONDS),
 * so the latest expiry is the newest session. Entries whose `sess:{sid}` is gone (a delete whose
 * ZREM was lost, a Redis eviction) are pruned here as they are met; expired ones fall out of the
 * (now, +inf] range by themselves and are trimmed on each count.
 */
@Injectable()
export class AllSessionsRepository {
  constructor(
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    private readonly sessions: SessionsRepository,
  ) {}

  /** Live sessions across every account: one ZCOUNT (O(log N)) after trimming the expired. */
  async countLive(now: number): Promise<number> {
    await this.redis.zremrangebyscore(ALL_SESSIONS_KEY, '-inf', now);
    return this.redis.zcount(ALL_SESSIONS_KEY, `(${now}`, '+inf');
  }

  /**
   * Up to `limit` live sessions, newest first, after `after` (exclusive); `more` when another
   * page follows. Ties on expiresAt are ordered by id, descending, as Redis orders them.
   */
  async page(
    after: SessionPosition | null,
    limit: number,
    now: number,
  ): Promise<{ sessions: SessionRecord[]; more: boolean }> {
    const found: SessionRecord[] = [];
    let position = after;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const want = limit + 1 - found.length;
      const ids = await this.idsAfter(position, want, now);
      if (ids.length === 0) break;
      const rows = await Promise.all(ids.map((entry) => this.sessions.get(entry.id)));
      const stale = ids.filter((_, i) => rows[i] === null).map((entry) => entry.id);
      if (stale.length > 0) await this.redis.zrem(ALL_SESSIONS_KEY, ...stale);
      found.push(...rows.filter((r): r is SessionRecord => r !== null));
      position = ids[ids.length - 1]!;
      if (found.length > limit || ids.length < want) break;
    }
    return { sessions: found.slice(0, limit), more: found.length > limit };
  }

  /** Ids after `position` in (expiresAt DESC, id DESC) order, still unexpired. */
  private async idsAfter(
    position: SessionPosition | null,
    count: number,
    now: number,
  ): Promise<SessionPosition[]> {
    const max = position ? String(position.expiresAt) : '+inf';
    // Entries sharing the cursor's score come first and some precede the cursor: fetch past them.
    const ties = position ? await this.redis.zcount(ALL_SESSIONS_KEY, max, max) : 0;
    const flat = await this.redis.zrevrangebyscore(
      ALL_SESSIONS_KEY,
      max,
      `(${now}`,
      'WITHSCORES',
      'LIMIT',
      0,
      count + ties,
    );
    const entries: SessionPosition[] = [];
    for (let i = 0; i < flat.length; i += 2) entries.push({ id: flat[i]!, expiresAt: Number(flat[i + 1]) });
    const after = position
      ? entries.filter((e) => e.expiresAt < position.expiresAt || e.id < position.id)
      : entries;
    return after.slice(0, count);
  }
}
