import { checkHealth } from './health';

describe(checkHealth.name, () => {
  it('is ok when every probe answers', async () => {
    const reply = await checkHealth('auth', { database: async () => 1, redis: async () => 'PONG' });
    expect(reply).toMatchObject({ service: 'auth', status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('names the probe that failed or hung', async () => {
    const reply = await checkHealth(
      'auth',
      {
        database: async () => {
          throw new Error('down');
        },
        redis: () => new Promise(() => undefined),
      },
      50,
    );
    expect(reply.status).toBe('degraded');
    expect(reply.checks).toEqual({ database: 'down', redis: 'down' });
  });
});
