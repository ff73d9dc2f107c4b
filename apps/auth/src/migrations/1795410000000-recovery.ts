import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account recovery (issue 5): the security questions of an account and the vault keys kept
 * from before an access reset. E-mail codes and bypass tokens live in Redis (hashed, with
 * their TTL), not here. Never edit this file once it has landed: add a new migration instead.
 */
export class Recovery1795410000000 implements MigrationInterface {
  name = 'Recovery1795410000000';

  async up(q: QueryRunner): Promise<void> {
    // Question texts only: the answers never reach the server (docs/crypto-protocol.md "Security questions").
    await q.query(`
      CREATE TABLE "auth"."security_questions" (
        "user_id" uuid PRIMARY KEY REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "questions" jsonb NOT NULL,
        "questions_salt" text NOT NULL,
        "answers_auth_hash" text NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "security_questions_three_check"
          CHECK (jsonb_typeof("questions") = 'array' AND jsonb_array_length("questions") = 3)
      )`);
    // The password-wrapped vault key of before a reset that made a new one: the old password
    // still unwraps it, and the client re-wraps the old items' keys under the new vault key.
    await q.query(`
      CREATE TABLE "auth"."legacy_vault_keys" (
        "id" uuid PRIMARY KEY,
        "user_id" uuid NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "wrapped_vault_key" text NOT NULL,
        "salt" text NOT NULL,
        "kdf_params" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX "legacy_vault_keys_user_created_idx" ON "auth"."legacy_vault_keys" ("user_id", "created_at" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "auth"."legacy_vault_keys"`);
    await q.query(`DROP TABLE IF EXISTS "auth"."security_questions"`);
  }
}
