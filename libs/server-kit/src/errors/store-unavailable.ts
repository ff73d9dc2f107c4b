/**
 * Whether an error means that a store the service depends on (PostgreSQL, Redis) is down or cut
 * the connection, rather than a bug: the caller gets 503 SERVICE_UNAVAILABLE (try again), not 500.
 * Read structurally (pg, TypeORM and ioredis errors, possibly from another realm), following
 * `driverError` and `cause`.
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  const code = typeof e.code === 'string' ? e.code : '';
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (NETWORK_CODES.has(code)) return true;
  // SQLSTATE class 08 (connection exception); 57P01-57P03: the server is shutting down, crashed
  // or starting up; 53300: too many connections.
  if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  // ioredis gave up on a command while reconnecting, or its connection is closed.
  if (name === 'MaxRetriesPerRequestError' || /^Connection is closed\.?$/.test(message)) return true;
  // pg: the server went away in the middle of a query, or the pool could not connect in time.
  if (/^Connection terminated|timeout exceeded when trying to connect/i.test(message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isStoreUnavailable(inner, depth + 1)))
    return true;
  return isStoreUnavailable(e.driverError, depth + 1) || isStoreUnavailable(e.cause, depth + 1);
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
