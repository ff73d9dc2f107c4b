import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `note_counts`: each owner's active and trashed notes, kept by triggers, so the admin console's
 * total over every owner is a sum over owners instead of a count(*) over every note (~80 ms at
 * 1,000,000 notes). One row per owner, so writers of different accounts never wait for each
 * other. One owner's counts are still counted from the notes themselves (index-only scan).
 * Never edit this file once it has landed: add a new migration instead.
 */
export class NoteCounts1795800000000 implements MigrationInterface {
  name = 'NoteCounts1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "notes"."note_counts" (
        "owner_id" uuid PRIMARY KEY,
        "notes" bigint NOT NULL DEFAULT 0,
        "deleted_notes" bigint NOT NULL DEFAULT 0
      )`);
    // Adds signed deltas per owner (rows in owner order, so two statements lock them alike);
    // an owner left with nothing loses its row.
    await q.query(`
      CREATE FUNCTION "notes"."note_counts_add"(deltas jsonb) RETURNS void LANGUAGE sql AS $$
        INSERT INTO "notes"."note_counts" AS c ("owner_id", "notes", "deleted_notes")
          SELECT (d->>'owner_id')::uuid, (d->>'notes')::bigint, (d->>'deleted')::bigint
          FROM jsonb_array_elements(deltas) d ORDER BY 1
        ON CONFLICT ("owner_id") DO UPDATE
          SET "notes" = c."notes" + EXCLUDED."notes", "deleted_notes" = c."deleted_notes" + EXCLUDED."deleted_notes";
        DELETE FROM "notes"."note_counts"
          WHERE "notes" = 0 AND "deleted_notes" = 0
            AND "owner_id" IN (SELECT (d->>'owner_id')::uuid FROM jsonb_array_elements(deltas) d);
      $$`);
    // Statement triggers with transition tables (one event each): a batch insert or an emptied
    // trash is one update per owner, not one per note.
    for (const [op, sign, table] of [
      ['INSERT', '', 'NEW'],
      ['DELETE', '-', 'OLD'],
    ] as const) {
      await q.query(`
        CREATE FUNCTION "notes"."note_counts_${op.toLowerCase()}"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM "notes"."note_counts_add"(coalesce((
            SELECT jsonb_agg(jsonb_build_object('owner_id', owner_id, 'notes', ${sign}active, 'deleted', ${sign}trashed))
            FROM (SELECT owner_id, count(*) FILTER (WHERE NOT is_deleted) AS active,
                    count(*) FILTER (WHERE is_deleted) AS trashed
                  FROM changed GROUP BY owner_id) per_owner), '[]'));
          RETURN NULL;
        END $$`);
      await q.query(`
        CREATE TRIGGER "note_counts_${op.toLowerCase()}" AFTER ${op} ON "notes"."notes"
        REFERENCING ${table} TABLE AS changed FOR EACH STATEMENT
        EXECUTE FUNCTION "notes"."note_counts_${op.toLowerCase()}"()`);
    }
    // Trash and restore change one row at a time; other updates (content, key) fire nothing.
    await q.query(`
      CREATE FUNCTION "notes"."note_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM "notes"."note_counts_add"(jsonb_build_array(jsonb_build_object('owner_id', NEW.owner_id,
          'notes', CASE WHEN NEW.is_deleted THEN -1 ELSE 1 END, 'deleted', CASE WHEN NEW.is_deleted THEN 1 ELSE -1 END)));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER "note_counts_move" AFTER UPDATE OF "is_deleted" ON "notes"."notes" FOR EACH ROW
      WHEN (OLD.is_deleted IS DISTINCT FROM NEW.is_deleted) EXECUTE FUNCTION "notes"."note_counts_move"()`);
    // The notes already there, counted while writers wait (the lock ends with this migration's transaction).
    await q.query(`LOCK TABLE "notes"."notes" IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      INSERT INTO "notes"."note_counts" ("owner_id", "notes", "deleted_notes")
      SELECT owner_id, count(*) FILTER (WHERE NOT is_deleted), count(*) FILTER (WHERE is_deleted)
      FROM "notes"."notes" GROUP BY owner_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of ['insert', 'delete', 'move']) {
      await q.query(`DROP TRIGGER IF EXISTS "note_counts_${name}" ON "notes"."notes"`);
      await q.query(`DROP FUNCTION IF EXISTS "notes"."note_counts_${name}"()`);
    }
    await q.query(`DROP FUNCTION IF EXISTS "notes"."note_counts_add"(jsonb)`);
    await q.query(`DROP TABLE IF EXISTS "notes"."note_counts"`);
  }
}
