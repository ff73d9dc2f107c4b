import {
  ACCOUNT_PURGE_QUEUES,
  AUTH_PATTERNS,
  ErrorCode,
  type AuthResponse,
  type WithRefresh,
} from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import type Redis from 'ioredis';
import { AUTH_REDIS } from '../../src/repositories/connections';
import { AccountDeletionService, PURGE_HOLD_MS } from '../../src/services/account-deletion.service';
import { PurgeRequeueService } from '../../src/services/purge-requeue.service';
import { authOf, hex, signupBody, startAuthTestApp, testAppPerFile } from './support/auth-test-app';

describe(AccountDeletionService.name, () => {
  const t = testAppPerFile(() => startAuthTestApp('deletion'));
  const queues = () => Object.values(ACCOUNT_PURGE_QUEUES).map((name) => t.queue(name));

  /** An account with two sessions (sign-up and a second sign-in). */
  async function accountWithTwoSessions() {
    const body = signupBody();
    const first = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body);
    const second = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.login, {
      identifier: body.username,
      authKey: body.authKey,
    });
    const userId = first.body.user.id;
    const sid = (r: WithRefresh<AuthResponse>) => r.refresh!.token.split('.')[0]!;
    return { body, userId, first, second, sessionIds: [sid(first), sid(second)] };
  }

  const countRows = async (sql: string, userId: string): Promise<number> =>
    Number((await t.pg.query<{ n: string }>(sql, [userId])).rows[0]?.n);

  it('deletes the user and its auth rows, revokes every session and queues both purge jobs', async () => {
    const a = await accountWithTwoSessions();
    const before = Date.now();

    await expect(
      t.call(AUTH_PATTERNS.deleteAccount, { authKey: a.body.authKey }, authOf(a.userId, a.sessionIds[0]!)),
    ).resolves.toBeNull();

    expect(await countRows(`SELECT count(*) AS n FROM auth.users WHERE id = $1`, a.userId)).toBe(0);
    expect(
      await countRows(`SELECT count(*) AS n FROM auth.security_events WHERE user_id = $1`, a.userId),
    ).toBe(0);
    for (const sid of a.sessionIds) expect(await t.redis.client.exists(redisKeys.session(sid))).toBe(0);
    expect(await t.redis.client.exists(redisKeys.userSessions(a.userId))).toBe(0);
    expect(await t.redis.client.exists(`known-dev:${a.userId}`)).toBe(0);

    for (const queue of queues()) {
      const job = await queue.getJob(`purge-${a.userId}`);
      expect(job?.data).toEqual({ userId: a.userId, requestedAt: expect.any(String) });
      expect(Date.parse(job!.data.requestedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(job?.opts.attempts).toBeGreaterThan(1);
      // Queued on hold inside the transaction, released once it committed.
      expect(job?.opts.delay).toBe(PURGE_HOLD_MS);
      expect(await job?.getState()).toBe('waiting');
    }
  });

  it('keeps an audit row that outlives the account, with the id and no personal data', async () => {
    const a = await accountWithTwoSessions();
    await t.call(
      AUTH_PATTERNS.deleteAccount,
      { authKey: a.body.authKey },
      { ...authOf(a.userId, a.sessionIds[1]!), ip: '203.0.113.9', userAgent: 'Firefox/140' },
    );
    const rows = (
      await t.pg.query(
        `SELECT user_id, details, ip_address, user_agent FROM auth.security_events
         WHERE event_type = 'account_deleted' AND details->>'userId' = $1`,
        [a.userId],
      )
    ).rows;
    expect(rows).toEqual([
      { user_id: null, details: { userId: a.userId }, ip_address: '203.0.113.9', user_agent: 'Firefox/140' },
    ]);
    const text = JSON.stringify(rows);
    for (const pii of [a.body.username, a.body.email, a.body.phoneNumber]) expect(text).not.toContain(pii);
  });

  it('leaves no way back in: refresh, the old access session and sign-in all fail', async () => {
    const a = await accountWithTwoSessions();
    await t.call(
      AUTH_PATTERNS.deleteAccount,
      { authKey: a.body.authKey },
      authOf(a.userId, a.sessionIds[0]!),
    );

    for (const r of [a.first, a.second]) {
      expect((await t.fail(AUTH_PATTERNS.refresh, { refreshToken: r.refresh!.token })).code).toBe(
        ErrorCode.REFRESH_INVALID,
      );
    }
    expect((await t.fail(AUTH_PATTERNS.me, undefined, authOf(a.userId, a.sessionIds[1]!))).code).toBe(
      ErrorCode.SESSION_REVOKED,
    );
    expect(
      (await t.fail(AUTH_PATTERNS.login, { identifier: a.body.username, authKey: a.body.authKey })).code,
    ).toBe(ErrorCode.INVALID_CREDENTIALS);
    // A replay of the deletion on the ended session is refused, not repeated.
    expect(
      (
        await t.fail(
          AUTH_PATTERNS.deleteAccount,
          { authKey: a.body.authKey },
          authOf(a.userId, a.sessionIds[0]!),
        )
      ).code,
    ).toBe(ErrorCode.SESSION_REVOKED);
    // The name and address are free again.
    await expect(
      t.call(AUTH_PATTERNS.signup, signupBody({ username: a.body.username, email: a.body.email })),
    ).resolves.toBeDefined();
  });

  it('answers 401 Invalid password for a wrong key, changes nothing and records reauth_failure', async () => {
    const a = await accountWithTwoSessions();
    const error = await t.fail(
      AUTH_PATTERNS.deleteAccount,
      { authKey: hex(32) },
      authOf(a.userId, a.sessionIds[0]!),
    );
    expect(error.code).toBe(ErrorCode.INVALID_PASSWORD);
    expect(error.message).toBe('Invalid password');
    const malformed = await t.fail(
      AUTH_PATTERNS.deleteAccount,
      { authKey: 'nope' },
      authOf(a.userId, a.sessionIds[0]!),
    );
    expect(malformed.code).toBe(ErrorCode.INVALID_PASSWORD);

    expect(await countRows(`SELECT count(*) AS n FROM auth.users WHERE id = $1`, a.userId)).toBe(1);
    for (const sid of a.sessionIds) expect(await t.redis.client.exists(redisKeys.session(sid))).toBe(1);
    for (const queue of queues()) expect(await queue.getJob(`purge-${a.userId}`)).toBeUndefined();
    const events = (
      await t.pg.query(
        `SELECT event_type, details FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
        [a.userId],
      )
    ).rows;
    expect(events.at(-1)).toEqual({
      event_type: 'reauth_failure',
      details: { sessionId: a.sessionIds[0], purpose: 'account_deletion' },
    });
    // A wrong key here does not count toward the sign-in lockout.
    const row = (await t.pg.query(`SELECT failed_login_attempts FROM auth.users WHERE id = $1`, [a.userId]))
      .rows[0];
    expect(row.failed_login_attempts).toBe(0);
  });

  it('refuses a caller without a session', async () => {
    const a = await accountWithTwoSessions();
    expect((await t.fail(AUTH_PATTERNS.deleteAccount, { authKey: a.body.authKey })).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
    expect(await countRows(`SELECT count(*) AS n FROM auth.users WHERE id = $1`, a.userId)).toBe(1);
  });

  describe(`${PurgeRequeueService.name}: purges lost with Redis are queued again`, () => {
    const deleteAccount = async () => {
      const a = await accountWithTwoSessions();
      await t.call(
        AUTH_PATTERNS.deleteAccount,
        { authKey: a.body.authKey },
        authOf(a.userId, a.sessionIds[0]!),
      );
      return a;
    };
    const jobsOf = (userId: string) => Promise.all(queues().map((q) => q.getJob(`purge-${userId}`)));

    it('when Redis comes back without them, the purges of deleted accounts are queued to run now', async () => {
      const gone = await deleteAccount();
      const kept = await accountWithTwoSessions();
      // What a Redis that comes back empty leaves: no purge job.
      for (const queue of queues()) await queue.remove(`purge-${gone.userId}`);
      expect((await jobsOf(gone.userId)).every((j) => j === undefined)).toBe(true);

      t.app.get<Redis>(AUTH_REDIS).emit('ready');
      const deadline = Date.now() + 5_000;
      while ((await jobsOf(gone.userId)).some((j) => j === undefined) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const job of await jobsOf(gone.userId)) {
        expect(job?.data).toEqual({ userId: gone.userId, requestedAt: expect.any(String) });
        expect(job?.opts.delay ?? 0).toBe(0);
      }
      // Only deleted accounts: one that exists is never purged.
      expect((await jobsOf(kept.userId)).every((j) => j === undefined)).toBe(true);
    });

    it('a purge still held is left as it is, and one deleted over a week ago is not queued', async () => {
      const recent = await deleteAccount();
      const old = await deleteAccount();
      for (const queue of queues()) await queue.remove(`purge-${old.userId}`);
      await t.pg.query(
        `UPDATE auth.security_events SET created_at = now() - interval '8 days'
          WHERE event_type = 'account_deleted' AND details->>'userId' = $1`,
        [old.userId],
      );
      const before = await jobsOf(recent.userId);

      await t.app.get(PurgeRequeueService).requeueRecent('test');
      const after = await jobsOf(recent.userId);
      expect(after.map((j) => j?.timestamp)).toEqual(before.map((j) => j?.timestamp));
      expect((await jobsOf(old.userId)).every((j) => j === undefined)).toBe(true);
    });
  });
});
