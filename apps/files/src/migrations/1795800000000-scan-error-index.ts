import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin console's failed scans: the files whose verdict is `error`, newest first, without
 * reading every file (few rows, so a small partial index). Never edit this file once it has
 * landed: add a new migration instead.
 */
export class ScanErrorIndex1795800000000 implements MigrationInterface {
  name = 'ScanErrorIndex1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "files_scan_error_idx" ON "files"."files" ("uploaded_at" DESC, "id") WHERE "virus_scan_result" = 'error' AND "status" = 'active'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "files"."files_scan_error_idx"`);
  }
}
