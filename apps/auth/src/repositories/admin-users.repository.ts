import { Injectable } from '@nestjs/common';
import type { AdminUsersQuery, AuthStats } from '@vault/contracts';
import { DataSource, type EntityManager, type Repository, type SelectQueryBuilder } from 'typeorm';
import { UserEntity } from '../entities/user.entity';
import { FAILED_SIGNIN_EVENTS } from './unusual-activity.repository';

/** What an admin row is built from: never a hash, a salt, a wrapped key or KDF parameters. */
export type AdminUserRow = Pick<
  UserEntity,
  | 'id'
  | 'email'
  | 'username'
  | 'role'
  | 'permissions'
  | 'twoFactorEnabled'
  | 'createdAt'
  | 'lastLoginAt'
  | 'failedLoginAttempts'
  | 'lockedUntil'
  | 'lockedReason'
>;

const ADMIN_USER_COLUMNS = [
  'u.id',
  'u.email',
  'u.username',
  'u.role',
  'u.permissions',
  'u.twoFactorEnabled',
  'u.createdAt',
  'u.lastLoginAt',
  'u.failedLoginAttempts',
  'u.lockedUntil',
  'u.lockedReason',
];

export interface ActivityHour {
  hour: Date;
  signups: number;
  failedSignIns: number;
}

/**
 * Failed sign-ins in the activity chart: a wrong key (signin_failure, admin_signin_failure), a
 * failed emergency verification, and a wrong second factor while signing in (two_factor_failure
 * whose `call` is the sign-in's). Wrong codes typed in the 2FA settings or during recovery are
 * not sign-ins.
 */
const ACTIVITY_FAILURES = [...FAILED_SIGNIN_EVENTS, 'admin_signin_failure'];

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The admin console's reads of `auth.users` (lists, counts, the activity chart). */
@Injectable()
export class AdminUsersRepository {
  private readonly users: Repository<UserEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  /** Each count a query of its own, so each uses its index (migration AdminIndexes). */
  async stats(): Promise<Omit<AuthStats, 'activeSessions'>> {
    const [row] = await this.dataSource.query<Record<string, number>[]>(`
      SELECT (SELECT count(*) FROM auth.users)::int AS "totalUsers",
             (SELECT count(*) FROM auth.users WHERE last_login_at > now() - interval '30 days')::int AS "activeUsers",
             (SELECT count(*) FROM auth.users WHERE locked_until > now())::int AS "lockedUsers",
             (SELECT count(*) FROM auth.users WHERE created_at > now() - interval '7 days')::int AS "recentSignups"`);
    return {
      totalUsers: row!.totalUsers!,
      activeUsers: row!.activeUsers!,
      lockedUsers: row!.lockedUsers!,
      recentSignups: row!.recentSignups!,
    };
  }

  /** `hours` UTC hours ending with the current one, oldest first, every hour present. */
  async activity(hours: number): Promise<ActivityHour[]> {
    const rows = await this.dataSource.query<{ hour: Date; signups: number; failed: number }[]>(
      `WITH bounds AS (SELECT date_trunc('hour', now() AT TIME ZONE 'UTC') AS last),
            counted AS (
              SELECT date_trunc('hour', e.created_at AT TIME ZONE 'UTC') AS hour,
                     count(*) FILTER (WHERE e.event_type = 'signup')::int AS signups,
                     count(*) FILTER (WHERE e.event_type <> 'signup')::int AS failed
                FROM auth.security_events e, bounds b
               WHERE e.created_at >= (b.last - ($1::int - 1) * interval '1 hour') AT TIME ZONE 'UTC'
                 AND (e.event_type = 'signup' OR e.event_type = ANY($2::text[])
                      OR (e.event_type = 'two_factor_failure'
                          AND (e.details->>'call' = 'login' OR e.details->>'call' LIKE 'admin%')))
               GROUP BY 1)
       SELECT (h.hour AT TIME ZONE 'UTC') AS hour, COALESCE(c.signups, 0) AS signups, COALESCE(c.failed, 0) AS failed
         FROM bounds b,
              generate_series(b.last - ($1::int - 1) * interval '1 hour', b.last, interval '1 hour') AS h(hour)
         LEFT JOIN counted c ON c.hour = h.hour
        ORDER BY h.hour`,
      [hours, ACTIVITY_FAILURES],
    );
    return rows.map((r) => ({ hour: new Date(r.hour), signups: r.signups, failedSignIns: r.failed }));
  }

  /** One page of the user list and the number of accounts the filter matches. */
  async list(query: AdminUsersQuery): Promise<{ rows: AdminUserRow[]; total: number }> {
    const filtered = this.filtered(query);
    const [rows, total] = await Promise.all([
      filtered
        .clone()
        .select(ADMIN_USER_COLUMNS)
        .orderBy('u.created_at', 'DESC')
        .addOrderBy('u.id', 'DESC')
        .limit(query.limit)
        .offset(query.offset)
        .getMany(),
      filtered.getCount(),
    ]);
    return { rows, total };
  }

  findRow(id: string): Promise<AdminUserRow | null> {
    return this.users.createQueryBuilder('u').select(ADMIN_USER_COLUMNS).where('u.id = :id', { id }).getOne();
  }

  // ── row locks of the admin actions, inside the caller's transaction ────────────────────

  /**
   * Locks every super_admin row, in id order: every caller takes them first and in the same
   * order, so two admin actions never wait on each other crosswise (no deadlock).
   */
  async lockSuperAdmins(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT id FROM auth.users WHERE role = 'super_admin' ORDER BY id FOR UPDATE`);
  }

  /** The account's row, locked until the transaction ends (null when there is none). */
  lockRow(manager: EntityManager, id: string): Promise<AdminUserRow | null> {
    return manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .select(ADMIN_USER_COLUMNS)
      .setLock('pessimistic_write')
      .where('u.id = :id', { id })
      .getOne();
  }

  /** Super admins other than `exceptId` that are not locked (able to sign in). */
  async unlockedSuperAdminsBesides(manager: EntityManager, exceptId: string): Promise<number> {
    const [row] = await manager.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM auth.users
        WHERE role = 'super_admin' AND id <> $1 AND (locked_until IS NULL OR locked_until <= now())`,
      [exceptId],
    );
    return row?.n ?? 0;
  }

  /** An administrator's lock on the row (null clears it, with the failure count). */
  async writeLock(
    manager: EntityManager,
    id: string,
    lock: { until: Date; reason: string } | null,
  ): Promise<void> {
    await manager
      .getRepository(UserEntity)
      .update(
        { id },
        lock
          ? { failedLoginAttempts: 0, lockedUntil: lock.until, lockedReason: lock.reason }
          : { failedLoginAttempts: 0, lockedUntil: null, lockedReason: null },
      );
  }

  /** E-mail and username of the given accounts (sessions and events shown beside them). */
  async namesOf(ids: string[]): Promise<Map<string, { email: string; username: string }>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.users
      .createQueryBuilder('u')
      .select(['u.id', 'u.email', 'u.username'])
      .where('u.id IN (:...ids)', { ids: unique })
      .getMany();
    return new Map(rows.map((r) => [r.id, { email: r.email, username: r.username }]));
  }

  private filtered(query: AdminUsersQuery): SelectQueryBuilder<UserEntity> {
    const qb = this.users.createQueryBuilder('u');
    const search = query.search?.trim().toLowerCase();
    // Both columns are stored lowercase; their text_pattern_ops indexes serve a prefix LIKE.
    if (search) {
      qb.andWhere(`(u.username_lower LIKE :prefix ESCAPE '\\' OR u.email LIKE :prefix ESCAPE '\\')`, {
        prefix: likePrefix(search),
      });
    }
    if (query.status === 'locked') qb.andWhere('u.locked_until > now()');
    if (query.status === 'admins') qb.andWhere(`u.role IN ('admin', 'super_admin')`);
    if (query.status === 'no-2fa') qb.andWhere('u.two_factor_enabled = false');
    return qb;
  }
}
