import { FIXED_VARIABLES, INHERITED_VARIABLES, testRunChildEnv } from './child-env';

describe("a test run's environment", () => {
  it('passes no variable outside the allow list, whatever the service has', () => {
    const service: Record<string, string> = {
      PATH: '/usr/bin',
      HOME: '/home/vault',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      DATABASE_URL: 'postgres://vault:hunter2@db/vault',
      REDIS_URL: 'redis://:secret@redis:6379',
      JWT_SECRET: 'x'.repeat(64),
      JWT_SECRET_FILE: '/run/secrets/jwt',
      NODE_OPTIONS: '--require /tmp/evil.js',
      LD_PRELOAD: '/tmp/evil.so',
      NODE_ENV: 'production',
      TEST_RUNNER_ENABLED: 'true',
    };
    const env = testRunChildEnv(service);
    const allowed = new Set<string>([...INHERITED_VARIABLES, ...Object.keys(FIXED_VARIABLES)]);
    expect(Object.keys(env).filter((name) => !allowed.has(name))).toEqual([]);
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/vault',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      NODE_ENV: 'test',
      CI: 'true',
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    });
    expect(JSON.stringify(env)).not.toMatch(/hunter2|secret|evil/);
  });

  it('leaves out the inherited variables the service does not have, and never lets them override the fixed ones', () => {
    expect(testRunChildEnv({ PATH: '/bin', CI: 'false', NO_COLOR: '' })).toEqual({
      PATH: '/bin',
      ...FIXED_VARIABLES,
    });
    expect(testRunChildEnv({})).toEqual(FIXED_VARIABLES);
  });
});
