import { loadDatabaseConfig, revertLastMigration, runMigrations } from '@vault/server-kit';
import { testDatabasePerFile } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import { CreateAuthSchema1795300000000 } from '../../src/migrations/1795300000000-create-auth-schema';
import { TwoFactor1795400000000 } from '../../src/migrations/1795400000000-two-factor';
import { Recovery1795410000000 } from '../../src/migrations/1795410000000-recovery';
import { authDatabaseConfig } from '../../src/repositories/connections';

describe(Recovery1795410000000.name, () => {
  const db = testDatabasePerFile('authrecoverymig');

  const cfg = () => ({
    ...authDatabaseConfig(loadDatabaseConfig({ DATABASE_URL: db.url })),
    migrations: [CreateAuthSchema1795300000000, TwoFactor1795400000000, Recovery1795410000000],
  });

  const hasTable = async (name: string): Promise<boolean> =>
    (
      await db.pg.query(
        `SELECT 1 FROM information_schema.tables WHERE table_schema = 'auth' AND table_name = $1`,
        [name],
      )
    ).rowCount === 1;

  const newUser = async (): Promise<string> => {
    const id = randomUUID();
    const name = `u${id.slice(0, 8)}`;
    await db.pg.query(
      `INSERT INTO auth.users (id, username, username_lower, email, phone_number, phone_normalized,
         auth_hash, salt, kdf_params, wrapped_vault_key)
       VALUES ($1, $2, $2, $2 || '@x.io', '1', '1', 'h', 's', '{}', 'w')`,
      [id, name],
    );
    return id;
  };

  it('creates security_questions and legacy_vault_keys', async () => {
    expect(await runMigrations(cfg())).toContain('Recovery1795410000000');
    expect(await hasTable('security_questions')).toBe(true);
    expect(await hasTable('legacy_vault_keys')).toBe(true);
  });

  it('holds exactly 3 questions per account', async () => {
    const userId = await newUser();
    const insert = (questions: string[]) =>
      db.pg.query(
        `INSERT INTO auth.security_questions (user_id, questions, questions_salt, answers_auth_hash)
         VALUES ($1, $2::jsonb, 's', 'h')`,
        [userId, JSON.stringify(questions)],
      );
    await expect(insert(['a', 'b'])).rejects.toThrow(/security_questions_three_check/);
    await expect(insert(['a', 'b', 'c'])).resolves.toBeDefined();
    await expect(insert(['d', 'e', 'f'])).rejects.toThrow(/security_questions_pkey/);
  });

  it('deletes an account’s questions and legacy keys with the account', async () => {
    const userId = await newUser();
    await db.pg.query(
      `INSERT INTO auth.security_questions (user_id, questions, questions_salt, answers_auth_hash)
       VALUES ($1, '["a","b","c"]', 's', 'h')`,
      [userId],
    );
    await db.pg.query(
      `INSERT INTO auth.legacy_vault_keys (id, user_id, wrapped_vault_key, salt, kdf_params)
       VALUES ($1, $2, 'w', 's', '{}')`,
      [randomUUID(), userId],
    );
    await db.pg.query(`DELETE FROM auth.users WHERE id = $1`, [userId]);
    const left = await db.pg.query(
      `SELECT (SELECT count(*) FROM auth.security_questions WHERE user_id = $1)::int AS q,
              (SELECT count(*) FROM auth.legacy_vault_keys WHERE user_id = $1)::int AS k`,
      [userId],
    );
    expect(left.rows[0]).toEqual({ q: 0, k: 0 });
  });

  it('drops both tables on down and comes back up', async () => {
    await revertLastMigration(cfg());
    expect(await hasTable('security_questions')).toBe(false);
    expect(await hasTable('legacy_vault_keys')).toBe(false);
    expect(await hasTable('users')).toBe(true);
    expect(await runMigrations(cfg())).toEqual(['Recovery1795410000000']);
    expect(await hasTable('legacy_vault_keys')).toBe(true);
  });
});
