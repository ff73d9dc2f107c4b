import { configError } from '../testing/config-error';
import { loadDatabaseConfig } from './load-config';
import { plainRpcServiceConfig } from './plain-rpc-service';

describe.each([
  { service: 'notes' as const, prefix: 'NOTES', port: 4002 },
  { service: 'admin' as const, prefix: 'ADMIN', port: 4004 },
])('$service configuration', ({ service, prefix, port }) => {
  const { load, describe: describeConfig } = plainRpcServiceConfig(service);

  it('applies the documented defaults', () => {
    const config = load({});
    expect(config.database).toEqual({ url: 'postgres://postgres@127.0.0.1:5432/vault', poolSize: 10 });
    expect(config.rpc).toEqual({
      transport: 'tcp',
      natsUrl: 'nats://127.0.0.1:4222',
      host: '127.0.0.1',
      port,
    });
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'vault:' });
    expect(config.health).toEqual({ host: '0.0.0.0', port: undefined });
  });

  it('reads the RPC listener, the transport and the probe port', () => {
    const config = load({
      [`${prefix}_RPC_HOST`]: '0.0.0.0',
      [`${prefix}_RPC_PORT`]: '5002',
      RPC_TRANSPORT: 'nats',
      NATS_URL: 'nats://nats:4222',
      HEALTH_PORT: '9090',
    });
    expect(config.rpc).toEqual({
      transport: 'nats',
      natsUrl: 'nats://nats:4222',
      host: '0.0.0.0',
      port: 5002,
    });
    expect(config.health.port).toBe(9090);
  });

  it('lists every bad variable at once', () => {
    const message = configError(load, {
      [`${prefix}_RPC_PORT`]: '70000',
      [`${prefix}_RPC_HOST`]: '',
      DATABASE_URL: 'mysql://x',
      RPC_TRANSPORT: 'udp',
    });
    expect(message).toContain('Invalid configuration');
    expect(message).toContain(`${prefix}_RPC_PORT`);
    expect(message).toContain(`${prefix}_RPC_HOST`);
    expect(message).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(message).toContain('RPC_TRANSPORT');
  });

  it('masks the database password in the boot log', () => {
    const config = load({ DATABASE_URL: 'postgres://vault:hunter2@db:5432/vault' });
    expect(JSON.stringify(describeConfig(config))).not.toContain('hunter2');
    expect(describeConfig(config).DATABASE_URL).toBe('postgres://vault:***@db:5432/vault');
  });

  it('needs only the database for migrations', () => {
    expect(loadDatabaseConfig({ DATABASE_URL: 'postgres://db/vault', DB_POOL_SIZE: '3' })).toEqual({
      url: 'postgres://db/vault',
      poolSize: 3,
    });
  });
});
