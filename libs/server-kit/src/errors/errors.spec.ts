import { RpcException } from '@nestjs/microservices';
import { ErrorCode, VaultError } from '@vault/contracts';
import { z } from 'zod';
import { httpErrorFor, vaultErrorFromRpc } from './http-error';
import { toRpcErrorPayload } from './rpc-exception.filter';

describe(toRpcErrorPayload.name, () => {
  it('passes domain errors through with their extra fields', () => {
    expect(
      toRpcErrorPayload(new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter: 42 })),
    ).toEqual({
      code: 'ACCOUNT_LOCKED',
      message: 'Account Temporarily Locked due to 5 consecutive failed login attempts',
      extra: { retryAfter: 42 },
    });
  });

  it('turns a validation error into its first message', () => {
    const result = z.object({ a: z.string().min(3, 'too short') }).safeParse({ a: 'x' });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(toRpcErrorPayload(result.error)).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'too short',
      });
  });

  it('unwraps a domain error inside an RpcException', () => {
    const err = new RpcException(new VaultError(ErrorCode.NOT_FOUND).toPayload());
    expect(toRpcErrorPayload(err).code).toBe('NOT_FOUND');
  });

  it('hides the text of unexpected errors', () => {
    expect(toRpcErrorPayload(new Error('relation "users" does not exist'))).toEqual({
      code: 'INTERNAL',
      message: 'Internal server error',
      extra: {},
    });
  });
});

describe(vaultErrorFromRpc.name, () => {
  it('rebuilds the domain error a service sent', () => {
    const err = vaultErrorFromRpc({ code: 'EMAIL_TAKEN', message: 'Email already registered', extra: {} });
    expect(err.code).toBe('EMAIL_TAKEN');
    expect(httpErrorFor(err, 'req-1')).toEqual({
      status: 409,
      body: { error: 'Email already registered', code: 'EMAIL_TAKEN', requestId: 'req-1' },
    });
  });

  it('answers 503 when the peer is down or silent', () => {
    expect(
      vaultErrorFromRpc(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4001'), {})).status,
    ).toBe(503);
    const timeout = new Error('Timeout has occurred');
    timeout.name = 'TimeoutError';
    expect(vaultErrorFromRpc(timeout).status).toBe(503);
  });

  it('answers 413 when NATS refuses a message over its max_payload', () => {
    const err = Object.assign(new Error('MAX_PAYLOAD_EXCEEDED'), { code: 'MAX_PAYLOAD_EXCEEDED' });
    expect(vaultErrorFromRpc(err)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('answers 500 for anything else', () => {
    expect(vaultErrorFromRpc(new Error('weird')).status).toBe(500);
  });
});
