import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes of the admin console's reads (apps/auth/README.md "Admin calls"), so its lists stay
 * index scans at 100,000 accounts:
 * - prefix search: `text_pattern_ops` lets `LIKE 'abc%'` use a b-tree whatever the collation
 *   (username_lower is already lowercase; email is stored lowercase);
 * - the user list's order (created_at DESC, id DESC) and the stats' "signed up within 7 days";
 * - "signed in within 30 days" (last_login_at);
 * - locked accounts: partial, only rows with a lock ever set (few);
 * - the activity chart and the event filter by type: (event_type, created_at DESC).
 * Never edit this file once it has landed.
 */
export class AdminIndexes1795450000000 implements MigrationInterface {
  name = 'AdminIndexes1795450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "users_username_lower_prefix_idx" ON "auth"."users" ("username_lower" text_pattern_ops)`,
    );
    await q.query(`CREATE INDEX "users_email_prefix_idx" ON "auth"."users" ("email" text_pattern_ops)`);
    await q.query(`CREATE INDEX "users_created_idx" ON "auth"."users" ("created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX "users_last_login_idx" ON "auth"."users" ("last_login_at")`);
    await q.query(
      `CREATE INDEX "users_locked_until_idx" ON "auth"."users" ("locked_until") WHERE "locked_until" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "security_events_type_created_idx" ON "auth"."security_events" ("event_type", "created_at" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of [
      'security_events_type_created_idx',
      'users_locked_until_idx',
      'users_last_login_idx',
      'users_created_idx',
      'users_email_prefix_idx',
      'users_username_lower_prefix_idx',
    ]) {
      await q.query(`DROP INDEX IF EXISTS "auth"."${name}"`);
    }
  }
}
