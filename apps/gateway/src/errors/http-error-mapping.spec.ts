import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { ErrorCode, VaultError } from '@vault/contracts';
import { FRAMEWORK_MESSAGES, toHttpError } from './http-error-mapping';

describe('toHttpError', () => {
  it('maps an account lockout to 423 with its message, retryAfter and a Retry-After header', () => {
    const answer = toHttpError(
      new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter: 600 }),
      'req-1',
    );
    expect(answer.status).toBe(423);
    expect(answer.headers['retry-after']).toBe('600');
    expect(answer.body).toEqual({
      error: 'Account Temporarily Locked due to 5 consecutive failed login attempts',
      code: 'ACCOUNT_LOCKED',
      retryAfter: 600,
      requestId: 'req-1',
    });
  });

  it('maps a rate limit to 429 with a Retry-After header rounded up to whole seconds', () => {
    const answer = toHttpError(new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: 12.2 }));
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('13');
    expect(answer.body.error).toBe('Too many requests. Please try again later.');
  });

  it('keeps extra fields such as requiresEmergencyVerification on 418', () => {
    const answer = toHttpError(
      new VaultError(ErrorCode.EMERGENCY_VERIFICATION_REQUIRED, undefined, {
        requiresEmergencyVerification: true,
      }),
    );
    expect(answer.status).toBe(418);
    expect(answer.body.requiresEmergencyVerification).toBe(true);
    expect(answer.headers).toEqual({});
  });

  it('maps an unreachable service to 503 SERVICE_UNAVAILABLE', () => {
    const answer = toHttpError(new VaultError(ErrorCode.SERVICE_UNAVAILABLE), 'r');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: 'Service unavailable',
      code: 'SERVICE_UNAVAILABLE',
      requestId: 'r',
    });
    expect(answer.unexpected).toBeUndefined();
  });

  it('answers 500 INTERNAL for an unexpected error without revealing its message, and flags it for the log', () => {
    const boom = new TypeError('cannot read secretField of undefined at /srv/app.js:12');
    const answer = toHttpError(boom, 'r2');
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ error: 'Internal server error', code: 'INTERNAL', requestId: 'r2' });
    expect(JSON.stringify(answer.body)).not.toContain('secretField');
    expect(answer.unexpected).toBe(boom);
  });

  it('drops any details a domain INTERNAL error carries', () => {
    const answer = toHttpError(new VaultError(ErrorCode.INTERNAL, 'db password wrong', { host: 'db' }));
    expect(answer.body).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
  });

  it('maps framework errors by status to the same body shape', () => {
    expect(toHttpError(new NotFoundException('Cannot GET /api/x')).body).toEqual({
      error: 'Not found',
      code: 'NOT_FOUND',
    });
    expect(toHttpError(new HttpException('Request body is too large', 413)).body).toEqual({
      error: 'Request body too large',
      code: 'PAYLOAD_TOO_LARGE',
    });
    const unsupported = toHttpError(new HttpException('Unsupported Media Type: text/xml', 415));
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toEqual({ error: FRAMEWORK_MESSAGES.notJson, code: 'VALIDATION_FAILED' });
    expect(toHttpError(new BadRequestException('Unexpected token s in {"secret"')).body).toEqual({
      error: 'Invalid request',
      code: 'VALIDATION_FAILED',
    });
  });

  it('treats a raw error with a 5xx statusCode as internal', () => {
    const error = Object.assign(new Error('socket hang up'), { statusCode: 502 });
    expect(toHttpError(error).status).toBe(500);
  });
});
