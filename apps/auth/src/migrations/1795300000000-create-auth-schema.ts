import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts and the security-event log (issue 2). Sessions, refresh families, lockout
 * counters and throttles live in Redis, not here. Never edit this file once it has landed:
 * add a new migration instead.
 */
export class CreateAuthSchema1795300000000 implements MigrationInterface {
  name = 'CreateAuthSchema1795300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "auth"`);
    await q.query(`
      CREATE TABLE "auth"."users" (
        "id" uuid PRIMARY KEY,
        "username" text NOT NULL,
        "username_lower" text NOT NULL,
        "email" text NOT NULL,
        "phone_number" text NOT NULL,
        "phone_normalized" text NOT NULL,
        "auth_hash" text NOT NULL,
        "salt" text NOT NULL,
        "kdf_params" jsonb NOT NULL,
        "wrapped_vault_key" text NOT NULL,
        "role" text NOT NULL DEFAULT 'user',
        "permissions" text[] NOT NULL DEFAULT '{}',
        "two_factor_enabled" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "last_login_at" timestamptz NULL,
        "failed_login_attempts" integer NOT NULL DEFAULT 0,
        "locked_until" timestamptz NULL,
        "locked_reason" text NULL,
        "recovery_auth_hash" text NULL,
        "recovery_wrapped_vault_key" text NULL,
        CONSTRAINT "users_username_lower_key" UNIQUE ("username_lower"),
        CONSTRAINT "users_email_key" UNIQUE ("email"),
        CONSTRAINT "users_username_lower_check" CHECK ("username_lower" = lower("username")),
        CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email")),
        CONSTRAINT "users_role_check" CHECK ("role" IN ('user', 'admin', 'super_admin')),
        CONSTRAINT "users_failed_login_attempts_check" CHECK ("failed_login_attempts" >= 0),
        CONSTRAINT "users_recovery_pair_check"
          CHECK (("recovery_auth_hash" IS NULL) = ("recovery_wrapped_vault_key" IS NULL))
      )`);
    await q.query(`CREATE INDEX "users_phone_normalized_idx" ON "auth"."users" ("phone_normalized")`);

    await q.query(`
      CREATE TABLE "auth"."security_events" (
        "id" uuid PRIMARY KEY,
        "user_id" uuid NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "event_type" text NOT NULL,
        "ip_address" text NOT NULL DEFAULT '',
        "user_agent" text NOT NULL DEFAULT '',
        "details" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX "security_events_user_created_idx" ON "auth"."security_events" ("user_id", "created_at" DESC)`,
    );
    await q.query(
      `CREATE INDEX "security_events_created_idx" ON "auth"."security_events" ("created_at" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "auth"."security_events"`);
    await q.query(`DROP TABLE IF EXISTS "auth"."users"`);
  }
}
