import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `stored_order`: notes whose `updated_at` is the same are listed in the order they were stored
 * (a batch in the order of its request, so an import keeps its file's order), not by id. Rows
 * already there get 0, so they keep their order (ties by id). Never edit this file once it has
 * landed: add a new migration instead.
 */
export class NoteListOrder1795600000000 implements MigrationInterface {
  name = 'NoteListOrder1795600000000';

  async up(q: QueryRunner): Promise<void> {
    // A constant default: no table rewrite for the rows already there.
    await q.query(`ALTER TABLE "notes"."notes" ADD COLUMN "stored_order" bigint NOT NULL DEFAULT 0`);
    // New rows: microseconds since the epoch (the service adds the note's place in its batch).
    await q.query(
      `ALTER TABLE "notes"."notes" ALTER COLUMN "stored_order" SET DEFAULT ((extract(epoch FROM now()) * 1000000)::bigint)`,
    );
    // The vault list: newest updated_at first, then stored_order, then id; keyset-paginated on all three.
    await q.query(`DROP INDEX "notes"."notes_owner_list_idx"`);
    await q.query(
      `CREATE INDEX "notes_owner_list_idx" ON "notes"."notes" ("owner_id", "is_deleted", "updated_at" DESC, "stored_order" ASC, "id" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "notes"."notes_owner_list_idx"`);
    await q.query(
      `CREATE INDEX "notes_owner_list_idx" ON "notes"."notes" ("owner_id", "is_deleted", "updated_at" DESC, "id" DESC)`,
    );
    await q.query(`ALTER TABLE "notes"."notes" DROP COLUMN "stored_order"`);
  }
}
