import { Injectable } from '@nestjs/common';
import {
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type AdminActivity,
  type AdminUserList,
  type AdminUsersQuery,
  type AuthStats,
  type AuthUserDetails,
} from '@vault/contracts';
import { toAdminSecurityEvent, toAdminSessionRow, toAdminUser } from '../mappers/admin.mapper';
import { AdminUsersRepository, type AdminUserRow } from '../repositories/admin-users.repository';
import { AllSessionsRepository } from '../repositories/all-sessions.repository';
import { SecurityEventsRepository } from '../repositories/security-events.repository';
import { SessionsRepository } from '../repositories/sessions.repository';

/**
 * What the admin console reads about accounts: the stats, the activity chart, the user list and
 * one account's details. The caller's permission was checked by the handler (readAdmin).
 */
@Injectable()
export class AdminDirectoryService {
  constructor(
    private readonly repo: AdminUsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly allSessions: AllSessionsRepository,
    private readonly events: SecurityEventsRepository,
  ) {}

  async stats(now = Date.now()): Promise<AuthStats> {
    const [counts, activeSessions] = await Promise.all([this.repo.stats(), this.allSessions.countLive(now)]);
    return { ...counts, activeSessions };
  }

  async activity(): Promise<AdminActivity> {
    const hours = await this.repo.activity(ADMIN_LIMITS.activityHours);
    return {
      hours: hours.map((h) => ({
        hour: h.hour.toISOString(),
        signups: h.signups,
        failedSignIns: h.failedSignIns,
      })),
    };
  }

  async users(query: AdminUsersQuery): Promise<AdminUserList> {
    const { rows, total } = await this.repo.list(query);
    const now = Date.now();
    return { users: rows.map((r) => toAdminUser(r, now)), total };
  }

  async user(id: string): Promise<AuthUserDetails> {
    const row = await this.requireUser(id);
    const [sessions, events] = await Promise.all([
      this.sessions.listForUser(id),
      this.events.page({ userId: id }, ADMIN_LIMITS.userEventsShown),
    ]);
    sessions.sort((a, b) => b.createdAt - a.createdAt);
    const names = { email: row.email, username: row.username };
    return {
      user: toAdminUser(row),
      sessions: sessions.map((s) => toAdminSessionRow(s, names)),
      events: events.map(toAdminSecurityEvent),
    };
  }

  /** The account as the console shows it, or 404 'User not found'. */
  async requireUser(id: string): Promise<AdminUserRow> {
    const row = await this.repo.findRow(id);
    if (!row) throw new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.userNotFound);
    return row;
  }
}
