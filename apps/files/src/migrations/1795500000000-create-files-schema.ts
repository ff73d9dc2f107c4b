import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Encrypted file records, their trash and scan results. Never edit this file once it has
 * landed: add a new migration instead.
 */
export class CreateFilesSchema1795500000000 implements MigrationInterface {
  name = 'CreateFilesSchema1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "files"`);
    await q.query(`
      CREATE TABLE "files"."files" (
        "id" uuid PRIMARY KEY,
        "owner_id" uuid NOT NULL,
        "status" text NOT NULL,
        "storage_type" text NOT NULL,
        "object_key" text NOT NULL,
        "encrypted_name" text NOT NULL,
        "encrypted_mime_type" text NOT NULL,
        "encrypted_tags" text NOT NULL,
        "wrapped_key" text NOT NULL,
        "iv" text NOT NULL,
        "chunk_size" integer NOT NULL,
        "size" bigint NOT NULL,
        "encrypted_size" bigint NOT NULL,
        "encrypted_thumbnail" text NULL,
        "is_deleted" boolean NOT NULL DEFAULT false,
        "virus_scanned" boolean NOT NULL DEFAULT false,
        "virus_scan_result" text NOT NULL DEFAULT 'pending',
        "scan_detail" text NULL,
        "body_hash" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "uploaded_at" timestamptz NULL,
        "deleted_at" timestamptz NULL,
        CONSTRAINT "files_status_check" CHECK ("status" IN ('pending', 'active')),
        CONSTRAINT "files_storage_type_check" CHECK ("storage_type" IN ('local', 's3', 'cloudinary')),
        CONSTRAINT "files_scan_result_check" CHECK ("virus_scan_result" IN ('pending', 'clean', 'infected', 'error')),
        CONSTRAINT "files_size_check" CHECK ("size" >= 0 AND "size" <= 104857600),
        CONSTRAINT "files_uploaded_check" CHECK (("status" = 'active') = ("uploaded_at" IS NOT NULL)),
        CONSTRAINT "files_deleted_at_check" CHECK ("is_deleted" = ("deleted_at" IS NOT NULL))
      )`);
    // The File Vault: one owner's active files, newest upload first.
    await q.query(
      `CREATE INDEX "files_owner_list_idx" ON "files"."files" ("owner_id", "is_deleted", "uploaded_at" DESC) WHERE "status" = 'active'`,
    );
    // The trash: one owner's deleted files, most recently deleted first.
    await q.query(
      `CREATE INDEX "files_owner_trash_idx" ON "files"."files" ("owner_id", "deleted_at" DESC) WHERE "is_deleted"`,
    );
    // The cleanup job: uploads begun and never completed, oldest first.
    await q.query(
      `CREATE INDEX "files_pending_idx" ON "files"."files" ("created_at") WHERE "status" = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "files"."files"`);
  }
}
