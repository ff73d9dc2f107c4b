import { loadDatabaseConfig, revertLastMigration, runMigrations } from '@vault/server-kit';
import { testDatabasePerFile } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import { AUTH_MIGRATIONS } from '../../src/migrations';
import { PhoneSignIn1795430000000 } from '../../src/migrations/1795430000000-phone-sign-in';
import { authDatabaseConfig } from '../../src/repositories/connections';

describe(PhoneSignIn1795430000000.name, () => {
  const db = testDatabasePerFile('authphonemig');

  const before = AUTH_MIGRATIONS.filter((m) => m !== PhoneSignIn1795430000000);
  const cfg = (migrations: unknown[]) => ({
    ...authDatabaseConfig(loadDatabaseConfig({ DATABASE_URL: db.url })),
    migrations: migrations as never,
  });

  const newUser = async (phone: string): Promise<string> => {
    const id = randomUUID();
    const name = `u${id.slice(0, 8)}`;
    await db.pg.query(
      `INSERT INTO auth.users (id, username, username_lower, email, phone_number, phone_normalized,
         auth_hash, salt, kdf_params, wrapped_vault_key)
       VALUES ($1, $2, $2, $2 || '@x.io', $3, $3, 'h', 's', '{}', 'w')`,
      [id, name, phone],
    );
    return id;
  };
  const phoneLogin = async (id: string) =>
    (
      await db.pg.query<{ phone_login: string | null }>(`SELECT phone_login FROM auth.users WHERE id = $1`, [
        id,
      ])
    ).rows[0]?.phone_login;

  beforeAll(async () => {
    await runMigrations(cfg(before));
  });

  it('gives phone sign-in to numbers one account holds, and to no account of a shared number', async () => {
    const alone = await newUser('+15550100');
    const twinA = await newUser('5550199');
    const twinB = await newUser('5550199');
    expect(await runMigrations(cfg(AUTH_MIGRATIONS))).toEqual(['PhoneSignIn1795430000000']);
    expect(await phoneLogin(alone)).toBe('+15550100');
    expect(await phoneLogin(twinA)).toBeNull();
    expect(await phoneLogin(twinB)).toBeNull();
  });

  it('keeps phone sign-in numbers unique from then on', async () => {
    const id = await newUser('5550111');
    await db.pg.query(`UPDATE auth.users SET phone_login = '5550111' WHERE id = $1`, [id]);
    const other = await newUser('5550111');
    await expect(
      db.pg.query(`UPDATE auth.users SET phone_login = '5550111' WHERE id = $1`, [other]),
    ).rejects.toThrow(/users_phone_login_key/);
  });

  it('goes down and up again', async () => {
    await revertLastMigration(cfg(AUTH_MIGRATIONS));
    const cols = await db.pg.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = 'auth' AND column_name = 'phone_login'`,
    );
    expect(cols.rowCount).toBe(0);
    // Two accounts now share 5550111: neither gets phone sign-in on the way back up.
    expect(await runMigrations(cfg(AUTH_MIGRATIONS))).toEqual(['PhoneSignIn1795430000000']);
    const shared = await db.pg.query(
      `SELECT count(*)::int AS n FROM auth.users WHERE phone_login = '5550111'`,
    );
    expect(shared.rows[0]).toEqual({ n: 0 });
  });
});
