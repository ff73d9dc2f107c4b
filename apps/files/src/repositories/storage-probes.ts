import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeLine } from '../mappers/safe-text';
import type { LocalStorageDriver, S3StorageDriver, StorageDriver, StorageOptions } from '@vault/storage';

/** A key no object has: Cloudinary is asked about it (the readiness probe does the same). */
export const PROBE_KEY = '00000000-0000-4000-8000-000000000000/00000000-0000-4000-8000-000000000000';

/** A cheap real call per kind of storage: it resolves when the storage can be used. */
export async function probeStorage(driver: StorageDriver): Promise<void> {
  switch (driver.type) {
    case 'local': {
      // The folder must take a write, not merely exist (uploads create it, as this does).
      const { root } = driver as LocalStorageDriver;
      await mkdir(root, { recursive: true, mode: 0o700 });
      const probe = join(root, `.health-${randomUUID()}`);
      await writeFile(probe, '');
      await rm(probe, { force: true });
      return;
    }
    case 's3': {
      // HeadBucket: the endpoint answers, the keys are accepted and the bucket exists.
      const s3 = driver as S3StorageDriver;
      if (!(await s3.client.bucketExists(s3.bucket))) throw new Error('Bucket not found');
      return;
    }
    case 'cloudinary':
      // A signed lookup of an asset that does not exist: 404 is an answer, 401 or no answer is not.
      await driver.stat(PROBE_KEY);
  }
}

/** The configured secrets, so that no error text shown to an admin can carry one. */
export function storageSecrets(options: StorageOptions, signingSecret: string): string[] {
  const { s3, cloudinary } = options;
  return [s3?.accessKey, s3?.secretKey, cloudinary?.apiKey, cloudinary?.apiSecret, signingSecret].filter(
    (s): s is string => typeof s === 'string' && s.length >= 4,
  );
}

/** An error as one short line (safeLine): its code when the message lacks it, no secret. */
export function shortError(error: unknown, secrets: readonly string[]): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const text = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return safeLine(text, { max: 160, fallback: 'Unreachable', secrets });
}
