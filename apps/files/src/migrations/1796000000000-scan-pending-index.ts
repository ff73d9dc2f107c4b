import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sweep that queues lost scans again (ScanRequeueService, every 5 minutes on each replica):
 * the stored files whose verdict is still `pending`, oldest upload first, without reading every
 * file (few rows at any time, so a small partial index). Never edit this file once it has landed:
 * add a new migration instead.
 */
export class ScanPendingIndex1796000000000 implements MigrationInterface {
  name = 'ScanPendingIndex1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "files_scan_pending_idx" ON "files"."files" ("uploaded_at", "id") WHERE "virus_scan_result" = 'pending' AND "status" = 'active'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "files"."files_scan_pending_idx"`);
  }
}
