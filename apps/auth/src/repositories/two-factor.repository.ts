import { Inject, Injectable } from '@nestjs/common';
import { RedisRateLimiter, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { SecurityEventEntity } from '../entities/security-event.entity';
import { AUTH_REDIS } from './connections';
import type { NewSecurityEvent } from './security-events.repository';

export interface TotpRow {
  secretSealed: string;
  /** Null while the secret waits for its first code (2FA not on yet). */
  enabledAt: Date | null;
}

export interface BackupCodeStats {
  unused: number;
  total: number;
  generated: Date | null;
}

const keys = {
  /** A TOTP time step already spent by this user (the code's replay mark). */
  totpUsed: (userId: string, timeStep: number) => `totp-used:${userId}:${timeStep}`,
  /** Wrong codes or keys on the signed-in 2FA calls, per user (a fixed window). */
  failures: (userId: string) => `2fa-fail:${userId}`,
};

/**
 * `auth.totp`, `auth.backup_codes` and the 2FA marks in Redis. Every change of the 2FA
 * state writes its security event in the same transaction.
 */
@Injectable()
export class TwoFactorRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    private readonly limiter: RedisRateLimiter,
  ) {}

  async findTotp(userId: string): Promise<TotpRow | null> {
    const rows: { secret_sealed: string; enabled_at: Date | null }[] = await this.dataSource.query(
      `SELECT secret_sealed, enabled_at FROM auth.totp WHERE user_id = $1`,
      [userId],
    );
    const row = rows[0];
    return row ? { secretSealed: row.secret_sealed, enabledAt: row.enabled_at } : null;
  }

  /**
   * Stores a new pending secret, replacing an earlier pending one. Returns false (and
   * changes nothing) when 2FA is already on: an active secret is only replaced by disabling.
   */
  async savePending(userId: string, secretSealed: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO auth.totp (user_id, secret_sealed, enabled_at, created_at)
       VALUES ($1, $2, NULL, now())
       ON CONFLICT (user_id) DO UPDATE
         SET secret_sealed = EXCLUDED.secret_sealed, created_at = now()
         WHERE auth.totp.enabled_at IS NULL
       RETURNING user_id`,
      [userId, secretSealed],
    );
    return rows.length === 1;
  }

  /**
   * Turns the pending secret on, with its first set of backup codes, in one transaction.
   * Only applies while the same pending secret is still there (a concurrent enable or
   * verify loses); returns false then.
   */
  async activate(
    userId: string,
    secretSealed: string,
    codeHashes: string[],
    event: NewSecurityEvent,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const [, affected] = (await m.query(
        `UPDATE auth.totp SET enabled_at = now()
         WHERE user_id = $1 AND secret_sealed = $2 AND enabled_at IS NULL`,
        [userId, secretSealed],
      )) as [unknown, number];
      if (affected !== 1) return false;
      await m.query(`UPDATE auth.users SET two_factor_enabled = true, updated_at = now() WHERE id = $1`, [
        userId,
      ]);
      await this.insertCodes(m, userId, codeHashes);
      await m.insert(SecurityEventEntity, event);
      return true;
    });
  }

  /** Turns 2FA off: the secret and every backup code go, the flag clears. */
  async disable(userId: string, event: NewSecurityEvent): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(`DELETE FROM auth.totp WHERE user_id = $1`, [userId]);
      await m.query(`DELETE FROM auth.backup_codes WHERE user_id = $1`, [userId]);
      await m.query(`UPDATE auth.users SET two_factor_enabled = false, updated_at = now() WHERE id = $1`, [
        userId,
      ]);
      await m.insert(SecurityEventEntity, event);
    });
  }

  /** A new set of backup codes; the old ones (used or not) are gone. */
  async replaceBackupCodes(userId: string, codeHashes: string[], event: NewSecurityEvent): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(`DELETE FROM auth.backup_codes WHERE user_id = $1`, [userId]);
      await this.insertCodes(m, userId, codeHashes);
      await m.insert(SecurityEventEntity, event);
    });
  }

  /**
   * Spends a backup code: one conditional UPDATE, so of two concurrent uses of the same
   * code exactly one sees its row change. Returns whether this call spent it.
   */
  async useBackupCode(userId: string, codeHash: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `UPDATE auth.backup_codes SET used_at = now()
       WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
      [userId, codeHash],
    )) as [unknown, number];
    return affected === 1;
  }

  async backupCodeStats(userId: string): Promise<BackupCodeStats> {
    const rows: { unused: string; total: string; generated: Date | null }[] = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE used_at IS NULL) AS unused, count(*) AS total, min(created_at) AS generated
       FROM auth.backup_codes WHERE user_id = $1`,
      [userId],
    );
    const row = rows[0];
    return {
      unused: Number(row?.unused ?? 0),
      total: Number(row?.total ?? 0),
      generated: row?.generated ?? null,
    };
  }

  /** Marks a TOTP time step spent; false when it already was (the code is a replay). */
  async claimTimeStep(userId: string, timeStep: number, ttlSeconds: number): Promise<boolean> {
    const ok = await this.redis.set(keys.totpUsed(userId, timeStep), '1', 'EX', ttlSeconds, 'NX');
    return ok === 'OK';
  }

  /** Failures in the current window (server-kit's RedisRateLimiter); `allowed` while fewer than `maxFailures`. */
  failures(userId: string, maxFailures: number): Promise<RateLimitAnswer> {
    return this.limiter.peek(keys.failures(userId), maxFailures);
  }

  recordFailure(userId: string, rule: RateLimitRule): Promise<RateLimitAnswer> {
    return this.limiter.hit(keys.failures(userId), rule);
  }

  clearFailures(userId: string): Promise<void> {
    return this.limiter.reset(keys.failures(userId));
  }

  private async insertCodes(m: EntityManager, userId: string, codeHashes: string[]): Promise<void> {
    if (codeHashes.length === 0) return;
    const values: string[] = [];
    const params: string[] = [];
    codeHashes.forEach((hash, i) => {
      values.push(`($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`);
      params.push(randomUUID(), userId, hash);
    });
    await m.query(
      `INSERT INTO auth.backup_codes (id, user_id, code_hash) VALUES ${values.join(', ')}`,
      params,
    );
  }
}
