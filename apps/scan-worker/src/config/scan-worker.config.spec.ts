import { configError } from '@vault/server-kit/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queuePrefix } from '@vault/server-kit';
import { STORAGE_ENV } from '../testing/storage-env';
import { describeConfig, loadScanWorkerConfig, REPO_ROOT } from './scan-worker.config';

const errorOf = (env: Record<string, string | undefined>): string => configError(loadScanWorkerConfig, env);

describe('scan worker configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadScanWorkerConfig(STORAGE_ENV);
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'vault:',
      queuePrefix: 'vault:bull',
    });
    expect(config.clamd).toEqual({ host: '127.0.0.1', port: 3310, timeoutMs: 30000 });
    expect(config.scan).toEqual({ concurrency: 2, attempts: 5, backoffMs: 5000 });
    expect(config.storage.local?.root).toBe(join(REPO_ROOT, '.data', 'files'));
    expect(config.storage.s3).toBeUndefined();
    expect(config.health).toEqual({ host: '0.0.0.0', port: undefined });
  });

  it('finds the repository root from its own folder', () => {
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).name).toBe('vault');
  });

  it('reads clamd, concurrency, retries and the probe port', () => {
    const config = loadScanWorkerConfig({
      ...STORAGE_ENV,
      CLAMD_HOST: 'clamav',
      CLAMD_PORT: '3311',
      CLAMD_TIMEOUT_MS: '5000',
      SCAN_CONCURRENCY: '4',
      SCAN_ATTEMPTS: '2',
      SCAN_BACKOFF_MS: '10',
      REDIS_PREFIX: 'stack-a:',
      HEALTH_PORT: '9091',
    });
    expect(config.clamd).toEqual({ host: 'clamav', port: 3311, timeoutMs: 5000 });
    expect(config.scan).toEqual({ concurrency: 4, attempts: 2, backoffMs: 10 });
    expect(config.redis.queuePrefix).toBe('stack-a:bull');
    expect(config.health.port).toBe(9091);
  });

  it("reads the files service's storage variables with @vault/storage's parser", () => {
    const config = loadScanWorkerConfig({
      STORAGE_LOCAL_ROOT: '/srv/vault/files',
      ...STORAGE_ENV,
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'vault',
      S3_ACCESS_KEY: 'minio-user',
      S3_SECRET_KEY: 'minio-secret-value',
    });
    expect(config.storage.local?.root).toBe('/srv/vault/files');
    expect(config.storage.s3).toMatchObject({
      endpoint: 'http://minio:9000',
      bucket: 'vault',
      pathStyle: true,
    });
  });

  it('refuses to start without any storage to read from', () => {
    expect(errorOf({})).toContain('No storage configured');
  });

  it("lists every bad variable at once, the worker's and the storage's", () => {
    const message = errorOf({
      CLAMD_PORT: '70000',
      SCAN_CONCURRENCY: '0',
      CLAMD_TIMEOUT_MS: 'soon',
      S3_BUCKET: 'vault',
    });
    expect(message.split('\n')[0]).toBe('Invalid configuration:');
    for (const name of [
      'CLAMD_PORT',
      'SCAN_CONCURRENCY',
      'CLAMD_TIMEOUT_MS',
      'S3_ENDPOINT',
      'S3_ACCESS_KEY',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('keeps passwords and storage secrets out of the boot log', () => {
    const config = loadScanWorkerConfig({
      ...STORAGE_ENV,
      REDIS_URL: 'redis://default:hunter2@redis:6379',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'vault',
      S3_ACCESS_KEY: 'minio-user',
      S3_SECRET_KEY: 'minio-secret-value',
    });
    const logged = JSON.stringify(describeConfig(config));
    for (const secret of ['hunter2', 'minio-secret-value', STORAGE_ENV.STORAGE_SIGNING_SECRET as string]) {
      expect(logged).not.toContain(secret);
    }
    expect(logged).toContain('bucket vault');
  });

  it('puts its queues where the files service puts them (server-kit queuePrefix)', () => {
    const config = loadScanWorkerConfig({ ...STORAGE_ENV, REDIS_PREFIX: 'vault-test:x:ab12:' });
    expect(config.redis.queuePrefix).toBe(queuePrefix('vault-test:x:ab12:'));
    expect(config.redis.queuePrefix).toBe('vault-test:x:ab12:bull');
  });
});
