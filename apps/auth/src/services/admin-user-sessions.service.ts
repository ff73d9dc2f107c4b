import { Injectable, Logger } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type AdminSessionList,
  type AdminSessionsQuery,
  type RpcAdmin,
  type RpcContext,
} from '@vault/contracts';
import { toAdminSessionRow } from '../mappers/admin.mapper';
import { AdminUsersRepository } from '../repositories/admin-users.repository';
import { AllSessionsRepository, type SessionPosition } from '../repositories/all-sessions.repository';
import { SessionsRepository, type SessionRecord } from '../repositories/sessions.repository';
import { assertMayActOn } from './admin-rank';
import { decodeSessionCursor, encodeCursor } from './keyset-cursor';
import { SecurityEventsService } from './security-events.service';

/** Newest first: the later expiry (a session's life is fixed at sign-in), then the larger id. */
const newestFirst = (a: SessionRecord, b: SessionRecord) =>
  b.expiresAt - a.expiresAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const isAfter = (s: SessionRecord, p: SessionPosition) =>
  s.expiresAt < p.expiresAt || (s.expiresAt === p.expiresAt && s.id < p.id);

/** Vault sessions across accounts, for the admin console: list (sessions:read) and revoke (sessions:revoke). */
@Injectable()
export class AdminUserSessionsService {
  private readonly logger = new Logger(AdminUserSessionsService.name);

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly allSessions: AllSessionsRepository,
    private readonly users: AdminUsersRepository,
    private readonly events: SecurityEventsService,
  ) {}

  async list(query: AdminSessionsQuery, now = Date.now()): Promise<AdminSessionList> {
    const after = query.cursor ? decodeSessionCursor(query.cursor) : null;
    const { sessions, more, total } = query.userId
      ? await this.ofUser(query.userId, after, query.limit, now)
      : {
          ...(await this.allSessions.page(after, query.limit, now)),
          total: await this.allSessions.countLive(now),
        };
    const names = await this.users.namesOf(sessions.map((s) => s.userId));
    const last = sessions[sessions.length - 1];
    return {
      sessions: sessions.map((s) => toAdminSessionRow(s, names.get(s.userId))),
      total,
      nextCursor: more && last ? encodeCursor(last.expiresAt, last.id) : null,
    };
  }

  /**
   * Ends the session: the gateway's EXISTS sess:{sid} fails from its next request (401). A
   * super_admin's only by a super_admin; your own vault sessions too.
   */
  async revoke(admin: RpcAdmin, sessionId: string, ctx: RpcContext): Promise<{ userId: string }> {
    const session = await this.sessions.get(sessionId);
    if (!session) throw new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.sessionNotFound);
    // An account deleted meanwhile has no rank left to protect.
    const owner = await this.users.findRow(session.userId);
    if (owner) assertMayActOn(admin, owner, { self: 'allowed' });
    if (!(await this.sessions.revokeOwned(session.userId, sessionId))) {
      throw new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.sessionNotFound);
    }
    await this.events.record('admin_session_revoked', session.userId, ctx, { sessionId, by: admin.id });
    this.logger.log(`Session ${sessionId} of ${session.userId} revoked by admin ${admin.id}`);
    return { userId: session.userId };
  }

  /** One account's sessions (a handful: its own index), paged in memory in the same order. */
  private async ofUser(userId: string, after: SessionPosition | null, limit: number, now: number) {
    const live = (await this.sessions.listForUser(userId)).filter((s) => s.expiresAt > now).sort(newestFirst);
    const rest = after ? live.filter((s) => isAfter(s, after)) : live;
    return { sessions: rest.slice(0, limit), more: rest.length > limit, total: live.length };
  }
}
