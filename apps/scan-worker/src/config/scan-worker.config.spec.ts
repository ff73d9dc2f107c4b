import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queuePrefix } from '@vault/server-kit';
import { describeConfig, loadScanWorkerConfig, REPO_ROOT } from './scan-worker.config';

function errorOf(env: Record<string, string | undefined>): string {
  try {
    loadScanWorkerConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('scan worker configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadScanWorkerConfig({});
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'vault:',
      queuePrefix: 'vault:bull',
    });
    expect(config.clamd).toEqual({ host: '127.0.0.1', port: 3310, timeoutMs: 30000 });
    expect(config.scan).toEqual({ concurrency: 2, attempts: 5, backoffMs: 5000 });
    expect(config.storage.localRoot).toBe(join(REPO_ROOT, '.data', 'files'));
    expect(config.health).toEqual({ host: '0.0.0.0', port: undefined });
  });

  it('finds the repository root from its own folder', () => {
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).name).toBe('vault');
  });

  it('reads clamd, concurrency, retries and storage', () => {
    const config = loadScanWorkerConfig({
      CLAMD_HOST: 'clamav',
      CLAMD_PORT: '3311',
      CLAMD_TIMEOUT_MS: '5000',
      SCAN_CONCURRENCY: '4',
      SCAN_ATTEMPTS: '2',
      SCAN_BACKOFF_MS: '10',
      STORAGE_LOCAL_ROOT: '/srv/vault/files',
      REDIS_PREFIX: 'stack-a:',
      HEALTH_PORT: '9091',
    });
    expect(config.clamd).toEqual({ host: 'clamav', port: 3311, timeoutMs: 5000 });
    expect(config.scan).toEqual({ concurrency: 4, attempts: 2, backoffMs: 10 });
    expect(config.storage.localRoot).toBe('/srv/vault/files');
    expect(config.redis.queuePrefix).toBe('stack-a:bull');
    expect(config.health.port).toBe(9091);
  });

  it('lists every bad variable at once', () => {
    const message = errorOf({ CLAMD_PORT: '70000', SCAN_CONCURRENCY: '0', CLAMD_TIMEOUT_MS: 'soon' });
    expect(message).toContain('Invalid configuration');
    expect(message).toContain('CLAMD_PORT');
    expect(message).toContain('SCAN_CONCURRENCY');
    expect(message).toContain('CLAMD_TIMEOUT_MS');
  });

  it('masks URL passwords in the boot log', () => {
    const config = loadScanWorkerConfig({ REDIS_URL: 'redis://default:hunter2@redis:6379' });
    expect(JSON.stringify(describeConfig(config))).not.toContain('hunter2');
  });

  it('puts its queues where the files service puts them (server-kit queuePrefix)', () => {
    const config = loadScanWorkerConfig({ REDIS_PREFIX: 'vault-test:x:ab12:' });
    expect(config.redis.queuePrefix).toBe(queuePrefix('vault-test:x:ab12:'));
    expect(config.redis.queuePrefix).toBe('vault-test:x:ab12:bull');
  });
});
