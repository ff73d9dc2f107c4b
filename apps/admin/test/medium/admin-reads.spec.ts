import { ADMIN_LIMITS, ADMIN_PATTERNS as P, ErrorCode, VaultError, type RpcReply } from '@vault/contracts';
import { adminContext } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import type { AuditRow } from '../../src/audit/verify-chain';
import { startAdminWithPeers, testAppPerFile } from './support/admin-test-app';
import { auditRows } from './support/audit-rows';
import { adminUser, securityEvent } from './support/fixtures';

describe('admin reads: put together from auth, notes and files', () => {
  const t = testAppPerFile(() => startAdminWithPeers('reads'));

  it('stats: auth counts plus every note and file (the trash included), asked at once', async () => {
    const started: number[] = [];
    const slow =
      <T>(value: T) =>
      async () => {
        started.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 300));
        return value;
      };
    t.auth.answer(
      'auth.admin.stats',
      slow({ totalUsers: 9, activeUsers: 4, lockedUsers: 1, activeSessions: 6, recentSignups: 2 }),
    );
    t.notes.answer('notes.admin.counts', slow({ notes: 10, deletedNotes: 3 }));
    t.files.answer('files.admin.counts', slow({ files: 5, deletedFiles: 1, bytes: 4096 }));
    const begun = Date.now();
    const stats = await t.call<RpcReply<'admin.stats'>>(P.stats, undefined, adminContext(['stats:read']));
    expect(Date.now() - begun).toBeLessThan(850);
    expect(Math.max(...started) - Math.min(...started)).toBeLessThan(200);
    expect(stats).toMatchObject({
      totalUsers: 9,
      activeUsers: 4,
      lockedUsers: 1,
      activeSessions: 6,
      recentSignups: 2,
    });
    expect(stats).toMatchObject({ totalNotes: 13, totalFiles: 6, storedBytes: 4096 });
    // Everyone's counts: no owner asked for.
    expect(t.notes.calls.at(-1)!.body).toEqual({});
    expect(t.files.calls.at(-1)!.body).toEqual({});
  });

  it("user: auth's details with that owner's counts", async () => {
    const id = randomUUID();
    t.auth.answer('auth.admin.user', (body) => ({
      user: adminUser((body as { id: string }).id),
      sessions: [],
      events: [],
    }));
    t.notes.answer('notes.admin.counts', () => ({ notes: 2, deletedNotes: 1 }));
    t.files.answer('files.admin.counts', () => ({ files: 3, deletedFiles: 0, bytes: 999 }));
    const details = await t.call<RpcReply<'admin.user'>>(P.user, { id }, adminContext(['users:read']));
    expect(details.user._id).toBe(id);
    expect(details.counts).toEqual({ notes: 2, deletedNotes: 1, files: 3, deletedFiles: 0, bytes: 999 });
    expect(t.notes.calls.at(-1)!.body).toEqual({ ownerId: id });
    expect(t.files.calls.at(-1)!.body).toEqual({ ownerId: id });
  });

  describe("user.view: reading a person's details is audited first", () => {
    const viewer = adminContext(['users:read']);
    const { lastId, entriesAfter } = auditRows(() => t.pg);

    it('appends user.view (target the user, no reason) before auth is asked', async () => {
      const mark = await lastId();
      const id = randomUUID();
      let seenAtCall: AuditRow[] = [];
      t.auth.answer('auth.admin.user', async (body) => {
        seenAtCall = await entriesAfter(mark);
        return { user: adminUser((body as { id: string }).id), sessions: [], events: [] };
      });
      t.notes.answer('notes.admin.counts', () => ({ notes: 0, deletedNotes: 0 }));
      t.files.answer('files.admin.counts', () => ({ files: 0, deletedFiles: 0, bytes: 0 }));
      await t.call(P.user, { id }, { ...viewer, ip: '203.0.113.8', userAgent: 'Firefox' });
      expect(seenAtCall.map((e) => e.action)).toEqual(['user.view']);
      expect(await entriesAfter(mark)).toEqual([
        expect.objectContaining({
          actor_id: viewer.admin.id,
          action: 'user.view',
          target_type: 'user',
          target_id: id,
          reason: null,
          ip: '203.0.113.8',
          user_agent: 'Firefox',
          details: {},
        }),
      ]);
    });

    it('records user.view.failed for an unknown account, and reads nothing when the entry cannot be written', async () => {
      t.auth.answer('auth.admin.user', () => {
        throw new VaultError(ErrorCode.NOT_FOUND, 'User not found');
      });
      let mark = await lastId();
      const id = randomUUID();
      expect((await t.fail(P.user, { id }, viewer)).code).toBe(ErrorCode.NOT_FOUND);
      expect((await entriesAfter(mark)).map((e) => [e.action, e.target_id, e.details])).toEqual([
        ['user.view', id, {}],
        ['user.view.failed', id, { error: 'NOT_FOUND' }],
      ]);

      mark = await lastId();
      const asked = t.auth.calls.length;
      const error = await t.fail(P.user, { id }, { ...viewer, userAgent: 'bad\u0000agent' });
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(t.auth.calls.length).toBe(asked);
      expect(await entriesAfter(mark)).toEqual([]);
    });
  });

  it("user: auth's NOT_FOUND comes back as it is", async () => {
    t.auth.answer('auth.admin.user', () => {
      throw new VaultError(ErrorCode.NOT_FOUND, 'User not found');
    });
    const error = await t.fail(P.user, { id: randomUUID() }, adminContext(['users:read']));
    expect(error.code).toBe(ErrorCode.NOT_FOUND);
  });

  describe('security events as CSV', () => {
    const reader = adminContext(['security:read']);

    it('pages through auth (keyset), writes a header and neutralises formulas; the export is audited', async () => {
      const events = Array.from({ length: 450 }, (_, i) => securityEvent(i + 1));
      events[0] = securityEvent(1, {
        userAgent: '=HYPERLINK("http://evil","x")',
        details: { reason: 'a,b' },
      });
      events[1] = securityEvent(2, { userAgent: '+cmd', ipAddress: '-1' });
      t.auth.answer('auth.admin.events', (body) => {
        const { cursor, limit } = body as { cursor?: string; limit: number };
        const start = cursor ? Number(cursor) : 0;
        const page = events.slice(start, start + limit);
        return { events: page, nextCursor: start + limit < events.length ? String(start + limit) : null };
      });
      const before = t.auth.calls.length;
      const reply = await t.call<RpcReply<'admin.events.csv'>>(P.eventsCsv, { type: 'login_failed' }, reader);
      expect(reply.rows).toBe(450);
      expect(reply.truncated).toBe(false);
      const pages = t.auth.calls.slice(before);
      expect(pages.map((c) => (c.body as { cursor?: string }).cursor)).toEqual([undefined, '200', '400']);
      expect(pages.every((c) => (c.body as { type?: string }).type === 'login_failed')).toBe(true);

      const lines = reply.csv.split('\r\n');
      expect(lines[0]).toBe('id,timestamp,eventType,userId,username,email,ipAddress,userAgent,details');
      expect(lines).toHaveLength(452); // header, 450 rows, the empty string after the last CRLF
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
      expect(lines[1]).toContain('"{""reason"":""a,b""}"');
      expect(lines[2]).toContain(`,'-1,'+cmd,`);

      const { rows } = await t.pg.query<{ action: string; details: unknown }>(
        `SELECT action, details FROM admin.audit_log WHERE action LIKE 'security-events.export%' ORDER BY id`,
      );
      expect(rows).toEqual([{ action: 'security-events.export', details: { type: 'login_failed' } }]);
    });

    it(`stops at ${ADMIN_LIMITS.eventsCsvMax} rows and says it was truncated`, async () => {
      t.auth.answer('auth.admin.events', (body) => {
        const { cursor, limit } = body as { cursor?: string; limit: number };
        const start = cursor ? Number(cursor) : 0;
        return {
          events: Array.from({ length: limit }, (_, i) => securityEvent(start + i + 1)),
          nextCursor: String(start + limit),
        };
      });
      const reply = await t.call<RpcReply<'admin.events.csv'>>(P.eventsCsv, {}, reader);
      expect(reply.rows).toBe(ADMIN_LIMITS.eventsCsvMax);
      expect(reply.truncated).toBe(true);
    });
  });

  it('audit.list: newest first, paged by `before`', async () => {
    const reader = adminContext(['audit:read']);
    const first = await t.call<RpcReply<'admin.audit.list'>>(P.auditList, { limit: 1 }, reader);
    const total = Number(
      (await t.pg.query<{ n: string }>('SELECT count(*) AS n FROM admin.audit_log')).rows[0]!.n,
    );
    expect(total).toBeGreaterThanOrEqual(2);
    expect(first.entries).toHaveLength(1);
    expect(first.entries[0]!.id).toBe(total);
    expect(first.nextBefore).toBe(total);
    const rest = await t.call<RpcReply<'admin.audit.list'>>(
      P.auditList,
      { limit: 200, before: first.nextBefore },
      reader,
    );
    expect(rest.entries.map((e) => e.id)).toEqual(Array.from({ length: total - 1 }, (_, i) => total - 1 - i));
    expect(rest.nextBefore).toBeNull();
    // The hashes stay in the database.
    expect(JSON.stringify(rest)).not.toMatch(/[0-9a-f]{64}/);
  });
});
