import { configError } from '@vault/server-kit/testing';
import { resolve } from 'node:path';
import { describeConfig, loadAdminConfig } from './admin.config';

describe('admin configuration', () => {
  it('names auth, notes and files at their default ports and leaves clamd unconfigured', () => {
    const config = loadAdminConfig({});
    expect(config.rpc).toMatchObject({ host: '127.0.0.1', port: 4004 });
    expect(config.peers).toEqual({
      transport: 'tcp',
      natsUrl: 'nats://127.0.0.1:4222',
      timeoutMs: 10_000,
      peers: {
        auth: { host: '127.0.0.1', port: 4001 },
        notes: { host: '127.0.0.1', port: 4002 },
        files: { host: '127.0.0.1', port: 4003 },
      },
    });
    expect(config.clamd).toBeUndefined();
  });

  it('reads the peers, the RPC timeout and clamd (the scan worker’s variable names)', () => {
    const config = loadAdminConfig({
      AUTH_RPC_HOST: 'auth',
      AUTH_RPC_PORT: '5001',
      NOTES_RPC_HOST: 'notes',
      FILES_RPC_PORT: '5003',
      RPC_TIMEOUT_MS: '2500',
      CLAMD_HOST: 'clamav',
      CLAMD_PORT: '3311',
    });
    expect(config.peers.peers).toEqual({
      auth: { host: 'auth', port: 5001 },
      notes: { host: 'notes', port: 4002 },
      files: { host: '127.0.0.1', port: 5003 },
    });
    expect(config.peers.timeoutMs).toBe(2500);
    expect(config.clamd).toEqual({ host: 'clamav', port: 3311 });
    expect(loadAdminConfig({ CLAMD_HOST: '  ' }).clamd).toBeUndefined();
  });

  it('leaves the test runner off by default, in the working directory, with a 30 min limit', () => {
    expect(loadAdminConfig({}).testRunner).toEqual({
      enabled: false,
      root: process.cwd(),
      timeoutMs: 1_800_000,
      childEnv: { NODE_ENV: 'test', CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
    });
  });

  it('reads the test runner variables, and gives its runs none of the service secrets', () => {
    const config = loadAdminConfig({
      TEST_RUNNER_ENABLED: 'true',
      TEST_RUNNER_ROOT: ' srv/vault ',
      TEST_RUNNER_TIMEOUT_SECONDS: '600',
      PATH: '/usr/bin',
      DATABASE_URL: 'postgres://vault:hunter2@db:5432/vault',
      REDIS_URL: 'redis://:hunter2@redis:6379',
    });
    expect(config.testRunner).toMatchObject({
      enabled: true,
      root: resolve('srv/vault'),
      timeoutMs: 600_000,
    });
    expect(config.testRunner.childEnv).toEqual({
      PATH: '/usr/bin',
      NODE_ENV: 'test',
      CI: 'true',
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    });
    expect(loadAdminConfig({ TEST_RUNNER_ENABLED: 'false' }).testRunner.enabled).toBe(false);
  });

  it('refuses a test runner switch that is not true or false, and a limit outside 10..7200 s', () => {
    const message = configError(loadAdminConfig, {
      TEST_RUNNER_ENABLED: 'yes',
      TEST_RUNNER_TIMEOUT_SECONDS: '9',
    });
    expect(message).toContain('TEST_RUNNER_ENABLED');
    expect(message).toContain('must be true or false');
    expect(message).toContain('TEST_RUNNER_TIMEOUT_SECONDS');
    expect(configError(loadAdminConfig, { TEST_RUNNER_TIMEOUT_SECONDS: '7201' })).toContain(
      'TEST_RUNNER_TIMEOUT_SECONDS',
    );
  });

  it('lists every bad variable at once', () => {
    const message = configError(loadAdminConfig, {
      AUTH_RPC_PORT: '0',
      FILES_RPC_HOST: '',
      CLAMD_PORT: '70000',
      RPC_TIMEOUT_MS: 'soon',
    });
    for (const name of ['AUTH_RPC_PORT', 'FILES_RPC_HOST', 'CLAMD_PORT', 'RPC_TIMEOUT_MS']) {
      expect(message).toContain(name);
    }
  });

  it('masks the database password in the boot log', () => {
    const config = loadAdminConfig({ DATABASE_URL: 'postgres://vault:hunter2@db:5432/vault' });
    expect(JSON.stringify(describeConfig(config))).not.toContain('hunter2');
  });
});
