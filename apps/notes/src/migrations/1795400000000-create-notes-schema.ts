import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Encrypted notes and their trash. Never edit this file once it has landed: add a new
 * migration instead.
 */
export class CreateNotesSchema1795400000000 implements MigrationInterface {
  name = 'CreateNotesSchema1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS "notes"`);
    await q.query(`
      CREATE TABLE "notes"."notes" (
        "id" uuid PRIMARY KEY,
        "owner_id" uuid NOT NULL,
        "title" text NOT NULL,
        "content" text NOT NULL,
        "tags" jsonb NOT NULL DEFAULT '[]',
        "wrapped_dek" text NOT NULL,
        "is_encrypted" boolean NOT NULL DEFAULT true,
        "is_deleted" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "deleted_at" timestamptz NULL,
        "body_hash" text NOT NULL,
        CONSTRAINT "notes_tags_array_check" CHECK (jsonb_typeof("tags") = 'array'),
        CONSTRAINT "notes_deleted_at_check" CHECK ("is_deleted" = ("deleted_at" IS NOT NULL))
      )`);
    // The vault list: one owner's active notes, newest first, keyset-paginated on (updated_at, id).
    await q.query(
      `CREATE INDEX "notes_owner_list_idx" ON "notes"."notes" ("owner_id", "is_deleted", "updated_at" DESC, "id" DESC)`,
    );
    // The trash: one owner's deleted notes, most recently deleted first.
    await q.query(
      `CREATE INDEX "notes_owner_trash_idx" ON "notes"."notes" ("owner_id", "deleted_at" DESC, "id" DESC) WHERE "is_deleted"`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "notes"."notes"`);
  }
}
