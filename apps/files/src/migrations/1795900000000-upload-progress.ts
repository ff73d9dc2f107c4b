import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uploads in parts that the store tracks itself: `upload_id` is the S3 multipart upload's id (the
 * browser sends its parts straight to S3) or the X-Unique-Upload-Id of a Cloudinary chunked
 * upload; `uploaded_bytes` is how far a Cloudinary chunked upload has got (the next part starts
 * there). Both stay null / 0 for the local disk and for whole uploads. Never edit this file once
 * it has landed: add a new migration instead.
 */
export class UploadProgress1795900000000 implements MigrationInterface {
  name = 'UploadProgress1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "files"."files" ADD COLUMN "upload_id" text`);
    await q.query(`ALTER TABLE "files"."files" ADD COLUMN "uploaded_bytes" bigint NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "files"."files" DROP COLUMN IF EXISTS "uploaded_bytes"`);
    await q.query(`ALTER TABLE "files"."files" DROP COLUMN IF EXISTS "upload_id"`);
  }
}
