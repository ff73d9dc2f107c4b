/**
 * The environment of a test run's process. It starts from nothing: only what node and Jest need
 * to start is taken from the admin service's own environment, so the database and Redis URLs, the
 * keys and every other secret of the service are not handed to the tests (nor printed into their
 * output). Not a sandbox: the run is the service's user, which could read the service's own
 * process (docs/threat-model.md); the runner is for a checkout one trusts.
 */
export const INHERITED_VARIABLES = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;

/** Set for every run: a test run, on CI terms, without colours (the output is shown as text). */
export const FIXED_VARIABLES = { NODE_ENV: 'test', CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' } as const;

export function testRunChildEnv(source: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = source[name];
    if (value) env[name] = value;
  }
  return { ...env, ...FIXED_VARIABLES };
}
