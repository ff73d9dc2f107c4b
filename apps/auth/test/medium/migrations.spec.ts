import { loadDatabaseConfig, revertLastMigration, runMigrations } from '@vault/server-kit';
import { testDatabasePerFile } from '@vault/server-kit/testing';
import { CreateAuthSchema1795300000000 } from '../../src/migrations/1795300000000-create-auth-schema';
import { authDatabaseConfig } from '../../src/repositories/connections';

describe(CreateAuthSchema1795300000000.name, () => {
  const db = testDatabasePerFile('authmigrations');

  const tables = () => db.tables('auth');

  // This spec is about the first migration alone; later ones have their own specs.
  const cfg = () => ({
    ...authDatabaseConfig(loadDatabaseConfig({ DATABASE_URL: db.url })),
    migrations: [CreateAuthSchema1795300000000],
  });

  it('creates the auth schema with users and security_events, and records itself', async () => {
    expect(await runMigrations(cfg())).toEqual(['CreateAuthSchema1795300000000']);
    expect(await tables()).toEqual(['auth_migrations', 'security_events', 'users']);
  });

  it('applies nothing the second time', async () => {
    expect(await runMigrations(cfg())).toEqual([]);
  });

  it('creates the documented columns, defaults and indexes', async () => {
    const cols = await db.pg.query<{
      column_name: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      `SELECT column_name, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = 'auth' AND table_name = 'users'`,
    );
    const byName = Object.fromEntries(cols.rows.map((c) => [c.column_name, c]));
    for (const name of [
      'id',
      'username',
      'username_lower',
      'email',
      'phone_number',
      'phone_normalized',
      'auth_hash',
      'salt',
      'kdf_params',
      'wrapped_vault_key',
      'role',
      'permissions',
      'two_factor_enabled',
      'created_at',
      'updated_at',
      'last_login_at',
      'failed_login_attempts',
      'locked_until',
      'locked_reason',
      'recovery_auth_hash',
      'recovery_wrapped_vault_key',
    ]) {
      expect(byName[name]).toBeDefined();
    }
    expect(byName.role?.column_default).toContain("'user'");
    expect(byName.two_factor_enabled?.column_default).toBe('false');
    expect(byName.failed_login_attempts?.column_default).toBe('0');
    expect(byName.last_login_at?.is_nullable).toBe('YES');
    expect(byName.recovery_auth_hash?.is_nullable).toBe('YES');

    const idx = await db.pg.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'auth'`,
    );
    const names = idx.rows.map((r) => r.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'users_username_lower_key',
        'users_email_key',
        'users_phone_normalized_idx',
        'security_events_user_created_idx',
        'security_events_created_idx',
      ]),
    );
    const eventsIdx = idx.rows.find((r) => r.indexname === 'security_events_user_created_idx');
    expect(eventsIdx?.indexdef).toContain('(user_id, created_at DESC)');
  });

  it('refuses a role outside user, admin and super_admin', async () => {
    const insert = (role: string) =>
      db.pg.query(
        `INSERT INTO auth.users (id, username, username_lower, email, phone_number, phone_normalized,
           auth_hash, salt, kdf_params, wrapped_vault_key, role)
         VALUES (gen_random_uuid(), $1, $1, $1 || '@x.io', '1', '1', 'h', 's', '{}', 'w', $2)`,
        [`r${Math.random().toString(36).slice(2, 8)}`, role],
      );
    await expect(insert('root')).rejects.toThrow(/users_role_check/);
    await expect(insert('super_admin')).resolves.toBeDefined();
  });

  it('removes the tables again on down, keeping the schema and its ledger', async () => {
    await revertLastMigration(cfg());
    expect(await tables()).toEqual(['auth_migrations']);
  });

  it('comes back up after a down', async () => {
    expect(await runMigrations(cfg())).toEqual(['CreateAuthSchema1795300000000']);
    expect(await tables()).toEqual(['auth_migrations', 'security_events', 'users']);
  });
});
