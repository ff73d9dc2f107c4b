import type { ArgumentsHost } from '@nestjs/common';
import { ErrorCode, VaultError } from '@vault/contracts';
import type { Logger } from 'pino';
import { HttpExceptionFilter } from './http-exception.filter';

function fakeHost() {
  const reply = {
    sent: false,
    statusCode: 200,
    headersSet: {} as Record<string, string>,
    contentType: '',
    payload: undefined as unknown,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    headers(values: Record<string, string>) {
      Object.assign(this.headersSet, values);
      return this;
    },
    type(value: string) {
      this.contentType = value;
      return this;
    },
    send(payload: unknown) {
      this.payload = payload;
      this.sent = true;
      return this;
    },
  };
  const request = { id: 'req-42' };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  return { host, reply };
}

function fakeLogger() {
  const error = jest.fn();
  return { logger: { error } as unknown as Logger, error };
}

describe(HttpExceptionFilter.name, () => {
  it('writes a 423 with Retry-After and the request id', () => {
    const { host, reply } = fakeHost();
    const { logger, error } = fakeLogger();
    new HttpExceptionFilter(logger).catch(
      new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter: 600 }),
      host,
    );
    expect(reply.statusCode).toBe(423);
    expect(reply.headersSet['retry-after']).toBe('600');
    expect(reply.payload).toMatchObject({ code: 'ACCOUNT_LOCKED', retryAfter: 600, requestId: 'req-42' });
    expect(reply.contentType).toContain('application/json');
    expect(error).not.toHaveBeenCalled();
  });

  it('logs the stack of an unexpected error but answers only a generic 500', () => {
    const { host, reply } = fakeHost();
    const { logger, error } = fakeLogger();
    const boom = new Error('connection string postgres://admin:hunter2@db');
    new HttpExceptionFilter(logger).catch(boom, host);
    expect(reply.statusCode).toBe(500);
    expect(reply.payload).toEqual({ error: 'Internal server error', code: 'INTERNAL', requestId: 'req-42' });
    expect(error).toHaveBeenCalledTimes(1);
    const [fields] = error.mock.calls[0] as [{ err: { stack: string } }];
    expect(fields.err.stack).toContain('Error: connection string');
  });

  it('does not write twice when the reply was already sent', () => {
    const { host, reply } = fakeHost();
    reply.sent = true;
    new HttpExceptionFilter(fakeLogger().logger).catch(new VaultError(ErrorCode.NOT_FOUND), host);
    expect(reply.payload).toBeUndefined();
  });
});
