import { loadDatabaseConfig, revertLastMigration, runMigrations } from '@vault/server-kit';
import { testDatabasePerFile } from '@vault/server-kit/testing';
import { CreateAdminAuditLog1795700000000 } from '../../src/migrations/1795700000000-create-admin-audit-log';
import { adminDatabaseConfig } from '../../src/repositories/connections';

describe(CreateAdminAuditLog1795700000000.name, () => {
  const db = testDatabasePerFile('adminmigrations');
  const tables = () => db.tables('admin');
  const cfg = () => adminDatabaseConfig(loadDatabaseConfig({ DATABASE_URL: db.url }));

  it('creates the admin schema with its audit log, and records itself', async () => {
    expect(await runMigrations(cfg())).toEqual(['CreateAdminAuditLog1795700000000']);
    expect(await tables()).toEqual(['admin_migrations', 'audit_log']);
  });

  it('applies nothing the second time', async () => {
    expect(await runMigrations(cfg())).toEqual([]);
  });

  it('creates the documented columns and the append-only triggers', async () => {
    const cols = await db.pg.query<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'admin' AND table_name = 'audit_log' ORDER BY ordinal_position`,
    );
    expect(cols.rows.map((c) => [c.column_name, c.data_type, c.is_nullable])).toEqual([
      ['id', 'bigint', 'NO'],
      ['created_at', 'timestamp with time zone', 'NO'],
      ['actor_id', 'uuid', 'NO'],
      ['actor_label', 'text', 'NO'],
      ['action', 'text', 'NO'],
      ['target_type', 'text', 'NO'],
      ['target_id', 'text', 'YES'],
      ['reason', 'text', 'YES'],
      ['ip', 'text', 'NO'],
      ['user_agent', 'text', 'NO'],
      ['details', 'jsonb', 'NO'],
      ['hash_version', 'smallint', 'NO'],
      ['prev_hash', 'text', 'NO'],
      ['hash', 'text', 'NO'],
    ]);
    const triggers = await db.pg.query<{ tgname: string }>(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'admin.audit_log'::regclass AND NOT tgisinternal ORDER BY tgname`,
    );
    expect(triggers.rows.map((r) => r.tgname)).toEqual([
      'audit_log_no_truncate',
      'audit_log_no_update_delete',
    ]);
  });

  it('refuses hashes that are not 64 hex digits and details that are not an object', async () => {
    const insert = (prevHash: string, details = '{}') =>
      db.pg.query(
        `INSERT INTO admin.audit_log (id, created_at, actor_id, actor_label, action, target_type, ip, user_agent,
           details, prev_hash, hash)
         VALUES (1, now(), gen_random_uuid(), 'a', 'user.lock', 'user', '::1', 'x', $2, $1, repeat('0', 64))`,
        [prevHash, details],
      );
    await expect(insert('abc')).rejects.toThrow(/audit_log_prev_hash_check/);
    await expect(insert('0'.repeat(64), '[]')).rejects.toThrow(/audit_log_details_object_check/);
  });

  it('removes the table and its trigger function on down, keeping the schema and its ledger', async () => {
    expect(await revertLastMigration(cfg())).toBe('CreateAdminAuditLog1795700000000');
    expect(await tables()).toEqual(['admin_migrations']);
    const fn = await db.pg.query(`SELECT 1 FROM pg_proc WHERE proname = 'audit_log_refuse_change'`);
    expect(fn.rowCount).toBe(0);
  });

  it('comes back up after a down', async () => {
    expect(await runMigrations(cfg())).toEqual(['CreateAdminAuditLog1795700000000']);
    expect(await tables()).toEqual(['admin_migrations', 'audit_log']);
  });
});
