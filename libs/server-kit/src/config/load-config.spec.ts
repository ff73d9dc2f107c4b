import { z } from 'zod';
import { commonEnvSchema } from './common.schema';
import { loadConfig, maskConfig } from './load-config';

describe(loadConfig.name, () => {
  it('applies defaults for the shared variables', () => {
    const cfg = loadConfig(commonEnvSchema, {});
    expect(cfg).toMatchObject({
      RPC_TRANSPORT: 'tcp',
      REDIS_PREFIX: 'vault:',
      LOG_PRETTY: false,
      LOG_LEVEL: 'info',
    });
  });

  it('stops with every invalid variable named', () => {
    expect(() => loadConfig(commonEnvSchema, { RPC_TRANSPORT: 'carrier-pigeon', LOG_LEVEL: 'loud' })).toThrow(
      /RPC_TRANSPORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*RPC_TRANSPORT/,
    );
  });

  it('coerces typed values', () => {
    const schema = z.object({ PORT: z.coerce.number().int() });
    expect(loadConfig(schema, { PORT: '8080' }).PORT).toBe(8080);
  });
});

describe(maskConfig.name, () => {
  it('hides secrets and URL passwords but keeps file paths', () => {
    const masked = maskConfig({
      SERVER_SECRET: 'abc',
      JWT_PRIVATE_KEY: '-----BEGIN',
      JWT_PRIVATE_KEY_FILE: '/keys/jwt.pem',
      DATABASE_URL: 'postgres://vault:hunter2@db:5432/vault',
      GATEWAY_PORT: 8080,
    });
    expect(masked).toEqual({
      SERVER_SECRET: '***',
      JWT_PRIVATE_KEY: '***',
      JWT_PRIVATE_KEY_FILE: '/keys/jwt.pem',
      DATABASE_URL: 'postgres://vault:***@db:5432/vault',
      GATEWAY_PORT: 8080,
    });
  });
});
