import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-account settings (issue 5): the malware-fingerprint opt-in, off by default. Never edit
 * this file once it has landed: add a new migration instead.
 */
export class AccountSettings1795420000000 implements MigrationInterface {
  name = 'AccountSettings1795420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "auth"."users" ADD COLUMN "malware_fingerprint_check" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "auth"."users" DROP COLUMN IF EXISTS "malware_fingerprint_check"`);
  }
}
