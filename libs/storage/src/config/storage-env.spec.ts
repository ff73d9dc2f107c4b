import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCloudinaryUrl, storageOptionsFromEnv } from './storage-env';

const signing = 'x'.repeat(32);

describe(storageOptionsFromEnv.name, () => {
  it('configures local from the signing secret, with defaults', () => {
    expect(storageOptionsFromEnv({ STORAGE_SIGNING_SECRET: signing })).toMatchObject({
      defaultType: 'local',
      local: { root: '.data/files', signingSecret: signing },
    });
  });

  it('configures S3 when S3_BUCKET is set (MinIO defaults: us-east-1, path-style)', () => {
    const options = storageOptionsFromEnv({
      S3_ENDPOINT: 'http://minio:9000',
      S3_PUBLIC_ENDPOINT: 'http://localhost:9000',
      S3_BUCKET: 'vault',
      S3_ACCESS_KEY: 'minio',
      S3_SECRET_KEY: 'minio-secret',
    });
    expect(options.defaultType).toBe('s3');
    expect(options.s3).toEqual({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://localhost:9000',
      region: 'us-east-1',
      bucket: 'vault',
      accessKey: 'minio',
      secretKey: 'minio-secret',
      pathStyle: true,
    });
  });

  it('reads R2/AWS settings and secrets from files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-env-'));
    writeFileSync(join(dir, 'secret'), 'from-a-file\n');
    const options = storageOptionsFromEnv({
      S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
      S3_REGION: 'auto',
      S3_BUCKET: 'vault',
      S3_ACCESS_KEY: 'id',
      S3_SECRET_KEY_FILE: join(dir, 'secret'),
      S3_PATH_STYLE: 'false',
      S3_PART_SIZE_MB: '16',
    });
    expect(options.s3).toMatchObject({ region: 'auto', secretKey: 'from-a-file', pathStyle: false });
    expect(options.s3?.partSize).toBe(16 * 1024 * 1024);
  });

  it('configures Cloudinary from CLOUDINARY_URL or from the three variables', () => {
    expect(
      storageOptionsFromEnv({ CLOUDINARY_URL: 'cloudinary://key:se%2Fcret@demo?upload_prefix=http://x' })
        .cloudinary,
    ).toEqual({ cloudName: 'demo', apiKey: 'key', apiSecret: 'se/cret' });
    expect(
      storageOptionsFromEnv({
        CLOUDINARY_CLOUD_NAME: 'demo',
        CLOUDINARY_API_KEY: 'k',
        CLOUDINARY_API_SECRET: 's',
        CLOUDINARY_FOLDER: 'prod/vault',
      }).cloudinary,
    ).toEqual({ cloudName: 'demo', apiKey: 'k', apiSecret: 's', folder: 'prod/vault' });
  });

  it('honours STORAGE_DEFAULT, and refuses one that is not configured', () => {
    const env = { STORAGE_SIGNING_SECRET: signing, CLOUDINARY_URL: 'cloudinary://k:s@demo' };
    expect(storageOptionsFromEnv(env).defaultType).toBe('local');
    expect(storageOptionsFromEnv({ ...env, STORAGE_DEFAULT: 'cloudinary' }).defaultType).toBe('cloudinary');
    expect(() => storageOptionsFromEnv({ ...env, STORAGE_DEFAULT: 's3' })).toThrow(/STORAGE_DEFAULT is s3/);
    expect(() => storageOptionsFromEnv({ ...env, STORAGE_DEFAULT: 'ftp' })).toThrow(/must be one of/);
  });

  it('lists every problem at once, without echoing secret values', () => {
    let message = '';
    try {
      storageOptionsFromEnv({
        STORAGE_SIGNING_SECRET: 'too-short',
        S3_BUCKET: 'vault',
        S3_ENDPOINT: 'minio:9000',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('STORAGE_SIGNING_SECRET must be at least 32 bytes');
    expect(message).toContain('S3_ENDPOINT');
    expect(message).toContain('S3_ACCESS_KEY');
    expect(message).not.toContain('too-short');
  });

  it('refuses an empty configuration', () => {
    expect(() => storageOptionsFromEnv({})).toThrow(/No storage configured/);
  });
});

describe(parseCloudinaryUrl.name, () => {
  it('refuses other schemes and missing parts', () => {
    expect(() => parseCloudinaryUrl('https://k:s@demo')).toThrow(/cloudinary:\/\//);
    expect(() => parseCloudinaryUrl('cloudinary://demo')).toThrow(/cloudinary:\/\//);
  });
});
