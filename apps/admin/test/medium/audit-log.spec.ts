import { ADMIN_PATTERNS, type HealthReply } from '@vault/contracts';
import type { Client } from 'pg';
import { auditHash, GENESIS_HASH } from '../../src/audit/audit-entry';
import { verifyAuditCommand } from '../../src/audit/verify-audit-command';
import { AuditLogRepository } from '../../src/repositories/audit-log.repository';
import { auditEntry, startAdminTestApp, testAppPerFile } from './support/admin-test-app';

/** Runs SQL as the superuser with the append-only triggers off, as someone covering their tracks would. */
async function tamper(pg: Client, sql: string, params: unknown[] = []): Promise<void> {
  await pg.query('ALTER TABLE admin.audit_log DISABLE TRIGGER USER');
  try {
    await pg.query(sql, params);
  } finally {
    await pg.query('ALTER TABLE admin.audit_log ENABLE TRIGGER USER');
  }
}

describe(AuditLogRepository.name, () => {
  const t = testAppPerFile(() => startAdminTestApp('audit'));
  const log = () => t.service.get(AuditLogRepository);

  /** An empty log, then `n` entries appended one after another. */
  async function freshLog(n: number): Promise<void> {
    await tamper(t.pg, 'DELETE FROM admin.audit_log');
    for (let i = 0; i < n; i += 1) await log().append(auditEntry({ details: { seq: i } }));
  }

  /** Verify finds the chain broken at entry `id` (of `kind`, saying `message`) after `entries` good ones. */
  async function expectBroken(entries: number, id: string, kind: string, message?: string): Promise<void> {
    const broken = message === undefined ? { id, kind } : { id, kind, message };
    expect(await log().verify()).toMatchObject({ ok: false, entries, broken });
  }

  const command = async (): Promise<{ code: number; out: string[]; err: string[] }> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await verifyAuditCommand(
      { DATABASE_URL: t.db.url },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out, err };
  };

  it('answers the health RPC with its database and Redis', async () => {
    const reply = await t.call<HealthReply>(ADMIN_PATTERNS.health, null);
    expect(reply).toMatchObject({ service: 'admin', status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('verifies an empty log', async () => {
    await freshLog(0);
    expect(await log().verify()).toEqual({ ok: true, entries: 0, lastId: null, lastHash: GENESIS_HASH });
    expect(await command()).toEqual({ code: 0, out: ['Audit log intact: 0 entries'], err: [] });
  });

  it('chains 50 concurrent appends with no gaps', async () => {
    await freshLog(0);
    const records = await Promise.all(
      Array.from({ length: 50 }, (_, i) => log().append(auditEntry({ details: { seq: i } }))),
    );
    expect(records.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const rows = await t.pg.query<{ id: string; prev_hash: string; hash: string }>(
      'SELECT id, prev_hash, hash FROM admin.audit_log ORDER BY id',
    );
    expect(rows.rows[0]?.prev_hash).toBe(GENESIS_HASH);
    rows.rows.slice(1).forEach((row, i) => expect(row.prev_hash).toBe(rows.rows[i]?.hash));
    // Batches smaller than the log, so the walk crosses batch boundaries.
    expect(await log().verify(7)).toEqual({
      ok: true,
      entries: 50,
      lastId: '50',
      lastHash: rows.rows[49]?.hash,
    });
    const { code, out } = await command();
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^Audit log intact: 50 entries \(last: entry 50, hash [0-9a-f]{64}\)$/);
  });

  it('stores what it was given, the time to the millisecond', async () => {
    await freshLog(0);
    const entry = auditEntry({ targetId: null, reason: null, details: { ids: ['a', 'b'], dryRun: false } });
    const record = await log().append(entry);
    const row = (await t.pg.query('SELECT * FROM admin.audit_log WHERE id = $1', [record.id])).rows[0];
    expect(row).toMatchObject({
      id: '1',
      actor_id: entry.actorId,
      actor_label: entry.actorLabel,
      action: 'user.lock',
      target_type: 'user',
      target_id: null,
      reason: null,
      ip: entry.ip,
      user_agent: entry.userAgent,
      details: { ids: ['a', 'b'], dryRun: false },
      hash_version: 1,
      prev_hash: GENESIS_HASH,
      hash: record.hash,
    });
    expect((row as { created_at: Date }).created_at.getTime()).toBe(record.createdAt.getTime());
  });

  it('finds an entry altered with a plain UPDATE, by its id', async () => {
    await freshLog(12);
    await tamper(t.pg, `UPDATE admin.audit_log SET reason = 'nothing happened' WHERE id = 7`);
    expect(await log().verify(5)).toEqual({
      ok: false,
      entries: 6,
      broken: { id: '7', kind: 'hash', message: 'entry 7: hash does not match its fields (altered)' },
    });
    const { code, err } = await command();
    expect(code).toBe(1);
    expect(err[0]).toBe('Audit log BROKEN at entry 7: entry 7: hash does not match its fields (altered)');
  });

  it('finds a change in details, time or actor as well', async () => {
    for (const change of [
      `details = '{"seq": 3, "minutes": 1}'`,
      `created_at = created_at + interval '1 second'`,
      `actor_id = gen_random_uuid()`,
    ]) {
      await freshLog(5);
      await tamper(t.pg, `UPDATE admin.audit_log SET ${change} WHERE id = 4`);
      expect(await log().verify()).toMatchObject({ ok: false, broken: { id: '4', kind: 'hash' } });
    }
  });

  it('finds a deleted middle row as a gap, naming the entry after it', async () => {
    await freshLog(10);
    await tamper(t.pg, 'DELETE FROM admin.audit_log WHERE id = 5');
    expect(await log().verify(3)).toEqual({
      ok: false,
      entries: 4,
      broken: { id: '6', kind: 'gap', message: 'entry 6: entry 5 is missing (deleted)' },
    });
    await tamper(t.pg, 'DELETE FROM admin.audit_log WHERE id IN (1, 2)');
    await expectBroken(0, '3', 'gap', 'entry 3: entries 1..2 are missing (deleted)');
  });

  it('finds rows deleted and renumbered to hide the gap (prev_hash)', async () => {
    await freshLog(8);
    await tamper(t.pg, 'DELETE FROM admin.audit_log WHERE id = 4');
    await tamper(t.pg, 'UPDATE admin.audit_log SET id = id - 1 WHERE id > 4');
    await expectBroken(3, '4', 'prev_hash', 'entry 4: prev_hash does not match the hash of entry 3');
  });

  it('finds two entries swapped', async () => {
    await freshLog(6);
    await tamper(t.pg, 'UPDATE admin.audit_log SET id = 100 WHERE id = 3');
    await tamper(t.pg, 'UPDATE admin.audit_log SET id = 3 WHERE id = 4');
    await tamper(t.pg, 'UPDATE admin.audit_log SET id = 4 WHERE id = 100');
    await expectBroken(2, '3', 'prev_hash');
  });

  it('finds a forged prev_hash, on the first entry too', async () => {
    await freshLog(6);
    await tamper(t.pg, `UPDATE admin.audit_log SET prev_hash = repeat('a', 64) WHERE id = 5`);
    await expectBroken(4, '5', 'prev_hash');
    await tamper(t.pg, `UPDATE admin.audit_log SET prev_hash = repeat('b', 64) WHERE id = 1`);
    await expectBroken(0, '1', 'prev_hash', 'entry 1: prev_hash is not the first entry’s 64 zeros');
  });

  it('finds an entry rewritten with a correct hash of its own, at the entry after it', async () => {
    await freshLog(6);
    // The attacker rewrites entry 3 completely (a valid hash for the new fields) but cannot
    // rewrite entry 4's prev_hash without breaking entry 4's hash in turn.
    const row = (await t.pg.query('SELECT * FROM admin.audit_log WHERE id = 3')).rows[0] as {
      created_at: Date;
      actor_id: string;
      prev_hash: string;
    };
    const fields = {
      id: '3',
      createdAt: row.created_at,
      actorId: row.actor_id,
      actorLabel: 'someone else',
      action: 'user.lock',
      targetType: 'user',
      targetId: null,
      reason: null,
      ip: '127.0.0.1',
      userAgent: 'x',
      details: {},
      prevHash: row.prev_hash,
    };
    await tamper(
      t.pg,
      `UPDATE admin.audit_log SET actor_label = $1, target_id = NULL, reason = NULL, ip = $2, user_agent = $3,
         details = '{}', hash = $4 WHERE id = 3`,
      [fields.actorLabel, fields.ip, fields.userAgent, auditHash(fields)],
    );
    // Entry 3 on its own now checks out; the chain does not.
    const alone = await t.pg.query<{ hash: string }>('SELECT hash FROM admin.audit_log WHERE id = 3');
    expect(alone.rows[0]?.hash).toBe(auditHash(fields));
    await expectBroken(3, '4', 'prev_hash', 'entry 4: prev_hash does not match the hash of entry 3');
  });

  it('refuses UPDATE, DELETE and TRUNCATE while its triggers are on, the superuser’s included', async () => {
    await freshLog(3);
    await expect(t.pg.query(`UPDATE admin.audit_log SET reason = 'x' WHERE id = 2`)).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(t.pg.query('DELETE FROM admin.audit_log WHERE id = 2')).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    await expect(t.pg.query('TRUNCATE admin.audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect(await log().verify()).toMatchObject({ ok: true, entries: 3 });
    // Appending goes on after the refusals.
    await log().append(auditEntry());
    expect(await log().verify()).toMatchObject({ ok: true, entries: 4 });
  });

  it('refuses an entry that breaks the rules before touching the table', async () => {
    await freshLog(1);
    await expect(log().append(auditEntry({ details: { note: { title: 'x' } } as never }))).rejects.toThrow();
    expect(await log().verify()).toMatchObject({ ok: true, entries: 1 });
  });

  it('says when there is no audit log to check', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const url = new URL(t.db.url);
    url.pathname = '/postgres';
    const code = await verifyAuditCommand(
      { DATABASE_URL: url.toString() },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    expect(code).toBe(2);
    expect(err[0]).toMatch(/no admin audit log on .*\(run npm run migrate\)/);
  });
});
