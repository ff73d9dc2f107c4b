import { ErrorCode, VaultError } from '@vault/contracts';
import { vaultErrorFromRpc } from './http-error';
import { toRpcErrorPayload } from './rpc-exception.filter';
import { isStoreUnavailable } from './store-unavailable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe(isStoreUnavailable.name, () => {
  it.each([
    ['PostgreSQL refusing connections', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'a backend ended by pg_terminate_backend',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['PostgreSQL starting up', withCode('the database system is starting up', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['the server gone mid-query', new Error('Connection terminated unexpectedly')],
    [
      'TypeORM wrapping a driver error',
      Object.assign(new Error('query failed'), { driverError: withCode('x', '57P01') }),
    ],
    [
      'ioredis giving up while reconnecting',
      Object.assign(new Error('Reached the max retries per request limit'), {
        name: 'MaxRetriesPerRequestError',
      }),
    ],
    ['a closed ioredis connection', new Error('Connection is closed.')],
    [
      'an error caused by one of these',
      new Error('job failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
    ],
    [
      'every address refused',
      new AggregateError([withCode('connect ECONNREFUSED ::1:6379', 'ECONNREFUSED')], 'connect failed'),
    ],
  ])('is true for %s', (_what, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
    expect(toRpcErrorPayload(error)).toEqual(new VaultError(ErrorCode.SERVICE_UNAVAILABLE).toPayload());
  });

  it.each([
    ['a bug', new Error('Cannot read properties of undefined')],
    ['a constraint violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a missing relation', withCode('relation "users" does not exist', '42P01')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('is false for %s', (_what, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
    expect(toRpcErrorPayload(error).code).toBe(ErrorCode.INTERNAL);
  });
});

describe('vaultErrorFromRpc while NATS reconnects', () => {
  it("answers 503 for the bare string Nest's NATS client rejects with", () => {
    expect(vaultErrorFromRpc('Error: Connection lost. Trying to reconnect...').status).toBe(503);
  });

  it('answers 503 when no replica of the service is subscribed (NATS "no responders")', () => {
    const empty = new Error(
      'Empty response. There are no subscribers listening to that message ("notes.create")',
    );
    expect(vaultErrorFromRpc(empty).status).toBe(503);
  });

  it('keeps other strings internal', () => {
    expect(vaultErrorFromRpc('something odd').status).toBe(500);
  });
});
