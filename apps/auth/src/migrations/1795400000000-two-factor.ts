import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor authentication (issue 5). `totp` holds the authenticator secret sealed with a
 * server key (never in clear); `enabled_at` is null while the secret waits for its first
 * code. `users.two_factor_enabled` stays the flag everything else reads. Backup codes are
 * stored as keyed hashes, one row each, used at most once. Never edit once landed.
 */
export class TwoFactor1795400000000 implements MigrationInterface {
  name = 'TwoFactor1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "auth"."totp" (
        "user_id" uuid PRIMARY KEY REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "secret_sealed" text NOT NULL,
        "enabled_at" timestamptz NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "auth"."backup_codes" (
        "id" uuid PRIMARY KEY,
        "user_id" uuid NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "code_hash" text NOT NULL,
        "used_at" timestamptz NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "backup_codes_user_hash_key" UNIQUE ("user_id", "code_hash")
      )`);
    // The unique key above already serves lookups by (user, hash); this one serves the counts.
    await q.query(`CREATE INDEX "backup_codes_user_idx" ON "auth"."backup_codes" ("user_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "auth"."backup_codes"`);
    await q.query(`DROP TABLE IF EXISTS "auth"."totp"`);
  }
}
