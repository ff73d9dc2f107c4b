import { configError } from '@vault/server-kit/testing';
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
