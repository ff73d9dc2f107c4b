import { ErrorCode, FILES_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { adminContext, freePort } from '@vault/server-kit/testing';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FilesConfig } from '../../src/config/files.config';
import { StorageRepository } from '../../src/repositories/storage.repository';
import { startFilesTestApp, testAppPerFile } from './support/files-test-app';

type Health = RpcReply<'files.admin.storage-health'>;

describe(`${StorageRepository.name}: storage health for the admin console`, () => {
  const t = testAppPerFile(() => startFilesTestApp('storagehealth'));

  /** The service's storage settings with some of them changed. */
  const health = (change: (storage: FilesConfig['storage']) => FilesConfig['storage']) =>
    new StorageRepository({ ...t.config, storage: change(t.config.storage) }).health();

  /** Every configured secret, none of which an answer may carry. */
  const secrets = () => {
    const { s3, cloudinary, signingSecret } = t.config.storage;
    return [s3!.accessKey, s3!.secretKey, cloudinary!.apiKey, cloudinary!.apiSecret, signingSecret];
  };

  it('answers every configured driver up with a real call, the default one marked', async () => {
    const reply = await t.call<Health>(P.adminStorageHealth, {}, adminContext(['system:read']));
    expect(reply).toEqual({
      storage: [
        { driver: 'local', default: false, status: 'up' },
        { driver: 's3', default: false, status: 'up' },
        { driver: 'cloudinary', default: true, status: 'up' },
      ],
    });
  });

  it('answers a missing bucket, refused Cloudinary keys and an unwritable folder down, in short words without secrets', async () => {
    const notAFolder = join(t.localRoot, 'plain-file');
    await writeFile(notAFolder, 'x');
    const storage = await health((s) => ({
      ...s,
      local: { ...s.local!, root: join(notAFolder, 'objects') },
      s3: { ...s.s3!, bucket: 'no-such-bucket' },
      cloudinary: { ...s.cloudinary!, apiSecret: 'a-wrong-cloudinary-secret' },
    }));
    expect(storage.map((s) => [s.driver, s.status])).toEqual([
      ['local', 'down'],
      ['s3', 'down'],
      ['cloudinary', 'down'],
    ]);
    expect(storage.find((s) => s.driver === 's3')?.error).toBe('Bucket not found');
    for (const entry of storage) {
      expect(entry.error!.length).toBeGreaterThan(0);
      expect(entry.error!.length).toBeLessThanOrEqual(160);
      expect(entry.error).not.toContain('\n');
      for (const secret of [...secrets(), 'a-wrong-cloudinary-secret'])
        expect(entry.error).not.toContain(secret);
    }
  });

  it('answers an S3 endpoint that does not answer down within its time limit', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const storage = await health((s) => ({ ...s, s3: { ...s.s3!, endpoint } }));
    expect(storage.find((s) => s.driver === 's3')).toMatchObject({
      status: 'down',
      error: expect.any(String),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses without system:read', async () => {
    expect((await t.fail(P.adminStorageHealth, {}, adminContext(['stats:read']))).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
    expect((await t.fail(P.adminStorageHealth, {})).code).toBe(ErrorCode.ADMIN_REQUIRED);
  });
});
