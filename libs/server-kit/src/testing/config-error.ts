type Env = Record<string, string | undefined>;

/** The message a service's config loader refuses `env` with; fails the test if it accepts it. */
export function configError(load: (env: Env) => unknown, env: Env): string {
  try {
    load(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}
