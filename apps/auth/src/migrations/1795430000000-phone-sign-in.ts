import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Phone numbers become a sign-in identifier of their own (issue 12): `phone_login` holds the
 * normal form (digits, with a leading + when typed) and is unique. Numbers that several existing
 * accounts share get none: those accounts sign in by username or e-mail, and nobody's phone
 * sign-in can resolve to another account. Never edit this file once it has landed.
 */
export class PhoneSignIn1795430000000 implements MigrationInterface {
  name = 'PhoneSignIn1795430000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "auth"."users" ADD COLUMN "phone_login" text`);
    await q.query(
      `UPDATE "auth"."users" u SET "phone_login" = u."phone_normalized"
        WHERE u."phone_normalized" <> ''
          AND NOT EXISTS (SELECT 1 FROM "auth"."users" v
                           WHERE v."phone_normalized" = u."phone_normalized" AND v."id" <> u."id")`,
    );
    await q.query(`CREATE UNIQUE INDEX "users_phone_login_key" ON "auth"."users" ("phone_login")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "auth"."users_phone_login_key"`);
    await q.query(`ALTER TABLE "auth"."users" DROP COLUMN IF EXISTS "phone_login"`);
  }
}
