import {
  ADMIN_MESSAGES,
  AUTH_PATTERNS,
  ErrorCode,
  type AdminEventList,
  type AdminSessionList,
  type OwnEventList,
  type RefreshResponse,
  type WithRefresh,
} from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import { randomUUID } from 'node:crypto';
import { ALL_SESSIONS_KEY } from '../../src/repositories/sessions.repository';
import { AdminEventsService } from '../../src/services/admin-events.service';
import { adminCtx, expectNoSecrets, freshIp, signUp, type TestAccount } from './support/admin-fixtures';
import { startAuthTestApp, testAppPerFile } from './support/auth-test-app';

describe(AdminEventsService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('adminevents'));
  const admin = adminCtx(['security:read', 'sessions:read', 'sessions:revoke']);

  const eventPage = (body: Record<string, unknown>) =>
    t.call<AdminEventList>(AUTH_PATTERNS.adminEvents, body, admin);
  const sessionPage = (body: Record<string, unknown>) =>
    t.call<AdminSessionList>(AUTH_PATTERNS.adminSessions, body, admin);
  const indexed = async (sid: string) => (await t.redis.client.zscore(ALL_SESSIONS_KEY, sid)) !== null;
  const login = async (a: TestAccount) => {
    const res = await t.call<WithRefresh<RefreshResponse>>(
      AUTH_PATTERNS.login,
      { identifier: a.body.username, authKey: a.body.authKey },
      { ip: freshIp() },
    );
    return { token: res.refresh!.token, sid: res.refresh!.token.split('.')[0]! };
  };

  /** Every page of a cursor-paged call, the cursors checked to move on. */
  async function allPages<T>(
    fetch: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>,
  ): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let pages = 1; pages < 100; pages += 1) {
      const page = await fetch(cursor);
      items.push(...page.items);
      if (!page.nextCursor) return { items, pages };
      cursor = page.nextCursor;
    }
    throw new Error('cursor never ended');
  }

  /** `count` events of the account; groups of three share one timestamp (ties ordered by id). */
  async function seedEvents(userId: string, count: number, type = 'settings_changed'): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      await t.pg.query(
        `INSERT INTO auth.security_events (id, user_id, event_type, details, created_at)
         VALUES ($1, $2, $3, $4, now() - interval '1 day' + $5 * interval '1 millisecond')`,
        [randomUUID(), userId, type, { n: i }, Math.floor(i / 3)],
      );
    }
  }

  describe('security events', () => {
    it('pages every event of a filter once, newest first, through ties on created_at', async () => {
      const a = await signUp(t);
      await seedEvents(a.userId, 20);
      const expected = (
        await t.pg.query<{ id: string }>(
          `SELECT id FROM auth.security_events WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
          [a.userId],
        )
      ).rows.map((r) => r.id);
      const { items, pages } = await allPages(async (cursor) => {
        const page = await eventPage({ userId: a.userId, limit: 4, cursor });
        return { items: page.events, nextCursor: page.nextCursor };
      });
      expect(pages).toBe(6);
      expect(items.map((e) => e.id)).toEqual(expected);
      expect(items[0]).toMatchObject({ userId: a.userId, email: a.body.email, username: a.body.username });
      expectNoSecrets(items, a);
    });

    it('filters by type and by a from/to range', async () => {
      const a = await signUp(t);
      await seedEvents(a.userId, 4, 'backup_code_used');
      const byType = await eventPage({ userId: a.userId, type: 'backup_code_used' });
      expect(byType.events.map((e) => e.event.eventType)).toEqual(Array(4).fill('backup_code_used'));
      expect(byType.nextCursor).toBeNull();
      const recent = await eventPage({
        userId: a.userId,
        from: new Date(Date.now() - 3_600_000).toISOString(),
      });
      expect(recent.events.map((e) => e.event.eventType)).toEqual(['signup']);
      const old = await eventPage({ userId: a.userId, to: new Date(Date.now() - 3_600_000).toISOString() });
      expect(old.events).toHaveLength(4);
    });

    it('answers 400 for a range that ends before it starts and for a bad cursor', async () => {
      const now = new Date().toISOString();
      const range = await t.fail(AUTH_PATTERNS.adminEvents, { from: now, to: now }, admin);
      expect([range.code, range.message]).toEqual([ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.invalidRange]);
      const forged = [
        'not-base64!',
        Buffer.from('2026-02-30T00:00:00.000000Z|' + randomUUID()).toString('base64url'),
        Buffer.from('yesterday|' + randomUUID()).toString('base64url'),
        Buffer.from('2026-01-01T00:00:00.000000Z|x').toString('base64url'),
        Buffer.from(`1700000000000|${randomUUID()}`).toString('base64url'),
      ];
      for (const cursor of forged) {
        const bad = await t.fail(AUTH_PATTERNS.adminEvents, { cursor }, admin);
        expect([bad.code, bad.message]).toEqual([ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.invalidCursor]);
      }
    });

    it('needs security:read', async () => {
      expect((await t.fail(AUTH_PATTERNS.adminEvents, {}, adminCtx(['sessions:read']))).code).toBe(
        ErrorCode.PERMISSION_DENIED,
      );
      expect((await t.fail(AUTH_PATTERNS.adminEvents, {})).code).toBe(ErrorCode.ADMIN_REQUIRED);
    });
  });

  describe("the user's own events", () => {
    it('pages only the caller’s events, newest first, and needs a live session', async () => {
      const a = await signUp(t);
      const other = await signUp(t);
      await seedEvents(a.userId, 7);
      await seedEvents(other.userId, 3);
      const { items } = await allPages(async (cursor) => {
        const page = await t.call<OwnEventList>(AUTH_PATTERNS.ownSecurityEvents, { limit: 3, cursor }, a.ctx);
        return { items: page.events, nextCursor: page.nextCursor };
      });
      expect(items).toHaveLength(8);
      expect(items[0]!.eventType).toBe('signup');
      expect(new Set(items.map((e) => e.id)).size).toBe(8);
      expect(items.slice(1).map((e) => e.details.n)).toEqual([6, 5, 4, 3, 2, 1, 0]);
      expectNoSecrets(items, a);

      expect((await t.fail(AUTH_PATTERNS.ownSecurityEvents, {})).code).toBe(ErrorCode.UNAUTHENTICATED);
      const bad = await t.fail(AUTH_PATTERNS.ownSecurityEvents, { cursor: 'abc' }, a.ctx);
      expect(bad.code).toBe(ErrorCode.VALIDATION_FAILED);
    });
  });

  describe('sessions', () => {
    it('lists live sessions newest first with names and a total, paged without duplicates or gaps', async () => {
      const accounts = [await signUp(t), await signUp(t), await signUp(t)];
      await login(accounts[0]!);
      // Four sessions sharing one expiry: ties are paged by id.
      const expiresAt = Date.now() + 3_600_000;
      for (let i = 0; i < 4; i += 1) {
        const sid = randomUUID();
        await t.redis.client.hset(redisKeys.session(sid), {
          userId: accounts[1]!.userId,
          createdAt: String(Date.now()),
          expiresAt: String(expiresAt),
        });
        await t.redis.client.zadd(ALL_SESSIONS_KEY, expiresAt, sid);
      }
      const first = await sessionPage({ limit: 3 });
      const { items } = await allPages(async (cursor) => {
        const page = cursor ? await sessionPage({ limit: 3, cursor }) : first;
        return { items: page.sessions, nextCursor: page.nextCursor };
      });
      expect(items).toHaveLength(first.total);
      expect(new Set(items.map((s) => s.sessionId)).size).toBe(items.length);
      const order = items.map((s) => [Date.parse(s.expiresAt), s.sessionId] as const);
      order.slice(1).forEach(([at, id], i) => {
        const [prevAt, prevId] = order[i]!;
        expect(at < prevAt || (at === prevAt && id < prevId)).toBe(true);
      });
      const mine = items.find((s) => s.sessionId === accounts[2]!.sessionId)!;
      expect(mine).toMatchObject({ userId: accounts[2]!.userId, email: accounts[2]!.body.email });
      expectNoSecrets(items);

      const ofUser = await sessionPage({ userId: accounts[0]!.userId, limit: 1 });
      expect(ofUser.total).toBe(2);
      const second = await sessionPage({ userId: accounts[0]!.userId, limit: 1, cursor: ofUser.nextCursor });
      expect(second.nextCursor).toBeNull();
      expect(new Set([ofUser.sessions[0]!.sessionId, second.sessions[0]!.sessionId]).size).toBe(2);
    });

    it('keeps the global index in step with every way a session ends, and prunes what is left behind', async () => {
      const a = await signUp(t);
      expect(await indexed(a.sessionId)).toBe(true);
      // Logout.
      const out = await login(a);
      await t.call(AUTH_PATTERNS.logout, { refreshToken: out.token }, a.ctx);
      expect(await indexed(out.sid)).toBe(false);
      // The user's own revoke.
      const revoked = await login(a);
      await t.call(AUTH_PATTERNS.revokeSession, { id: revoked.sid }, a.ctx);
      expect(await indexed(revoked.sid)).toBe(false);
      // Refresh-token reuse (a token two rotations back).
      const reused = await login(a);
      const r1 = await t.call<WithRefresh<RefreshResponse>>(AUTH_PATTERNS.refresh, {
        refreshToken: reused.token,
      });
      await t.call(AUTH_PATTERNS.refresh, { refreshToken: r1.refresh!.token });
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken: reused.token })).code).toBe(
        ErrorCode.REFRESH_REUSED,
      );
      expect(await indexed(reused.sid)).toBe(false);
      // The admin's end-sessions.
      const ended = await login(a);
      await t.call(AUTH_PATTERNS.adminEndSessions, { id: a.userId }, admin);
      expect(await indexed(ended.sid)).toBe(false);
      expect(await indexed(a.sessionId)).toBe(false);
      // Account deletion.
      const b = await signUp(t);
      await t.call(AUTH_PATTERNS.deleteAccount, { authKey: b.body.authKey }, b.ctx);
      expect(await indexed(b.sessionId)).toBe(false);

      // An entry whose session is gone is pruned when a page meets it, and never counted twice.
      const ghost = randomUUID();
      await t.redis.client.zadd(ALL_SESSIONS_KEY, Date.now() + 7_200_000, ghost);
      const page = await sessionPage({ limit: 200 });
      expect(page.sessions.map((s) => s.sessionId)).not.toContain(ghost);
      expect(await indexed(ghost)).toBe(false);
      // Expired entries fall out of the count.
      const expired = randomUUID();
      await t.redis.client.zadd(ALL_SESSIONS_KEY, Date.now() - 1, expired);
      expect((await sessionPage({ limit: 1 })).total).toBe(page.total);
    });

    it('revokes one session: gone from Redis (the gateway answers 401), event on its user, 404 after', async () => {
      const a = await signUp(t);
      const res = await t.call<{ userId: string }>(
        AUTH_PATTERNS.adminRevokeSession,
        { id: a.sessionId },
        admin,
      );
      expect(res).toEqual({ userId: a.userId });
      expect(await t.redis.client.exists(redisKeys.session(a.sessionId))).toBe(0);
      expect(await indexed(a.sessionId)).toBe(false);
      const events = await t.pg.query(
        `SELECT details FROM auth.security_events WHERE user_id = $1 AND event_type = 'admin_session_revoked'`,
        [a.userId],
      );
      expect(events.rows[0].details).toEqual({ sessionId: a.sessionId, by: admin.admin!.id });
      const again = await t.fail(AUTH_PATTERNS.adminRevokeSession, { id: a.sessionId }, admin);
      expect([again.code, again.message]).toEqual([ErrorCode.NOT_FOUND, ADMIN_MESSAGES.sessionNotFound]);
      expect(
        (await t.fail(AUTH_PATTERNS.adminRevokeSession, { id: a.sessionId }, adminCtx(['sessions:read'])))
          .code,
      ).toBe(ErrorCode.PERMISSION_DENIED);
    });
  });
});
