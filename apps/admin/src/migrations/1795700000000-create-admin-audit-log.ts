import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin audit log: append-only, hash-chained (apps/admin/README.md "The audit log"). Never
 * edit this file once it has landed: add a new migration instead.
 *
 * `id` is not a bigserial: AuditLogRepository.append gives each entry the previous id + 1 while
 * it holds the table's lock, so ids have no holes and a hole means a deleted row (a sequence
 * leaves one whenever an insert rolls back).
 *
 * The triggers refuse UPDATE, DELETE and TRUNCATE to every role, the service's own included. A
 * table owner or superuser can still disable them or drop the table: what they change is then
 * found by `npm run admin -- verify-audit` (the hash chain).
 */
export class CreateAdminAuditLog1795700000000 implements MigrationInterface {
  name = 'CreateAdminAuditLog1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "admin"`);
    await q.query(`
      CREATE TABLE "admin"."audit_log" (
        "id" bigint PRIMARY KEY,
        "created_at" timestamptz NOT NULL,
        "actor_id" uuid NOT NULL,
        "actor_label" text NOT NULL,
        "action" text NOT NULL,
        "target_type" text NOT NULL,
        "target_id" text NULL,
        "reason" text NULL,
        "ip" text NOT NULL,
        "user_agent" text NOT NULL,
        "details" jsonb NOT NULL DEFAULT '{}',
        "hash_version" smallint NOT NULL DEFAULT 1,
        "prev_hash" text NOT NULL,
        "hash" text NOT NULL,
        CONSTRAINT "audit_log_id_check" CHECK ("id" > 0),
        CONSTRAINT "audit_log_details_object_check" CHECK (jsonb_typeof("details") = 'object'),
        CONSTRAINT "audit_log_prev_hash_check" CHECK ("prev_hash" ~ '^[0-9a-f]{64}$'),
        CONSTRAINT "audit_log_hash_check" CHECK ("hash" ~ '^[0-9a-f]{64}$')
      )`);
    await q.query(`
      CREATE FUNCTION "admin"."audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'admin.audit_log is append-only: % refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "admin"."audit_log"
      FOR EACH ROW EXECUTE FUNCTION "admin"."audit_log_refuse_change"()`);
    await q.query(`
      CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "admin"."audit_log"
      FOR EACH STATEMENT EXECUTE FUNCTION "admin"."audit_log_refuse_change"()`);
    // The console's audit view lists by actor and by target, newest first.
    await q.query(`CREATE INDEX "audit_log_actor_idx" ON "admin"."audit_log" ("actor_id", "id" DESC)`);
    await q.query(
      `CREATE INDEX "audit_log_target_idx" ON "admin"."audit_log" ("target_type", "target_id", "id" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "admin"."audit_log"`);
    await q.query(`DROP FUNCTION IF EXISTS "admin"."audit_log_refuse_change"()`);
  }
}
