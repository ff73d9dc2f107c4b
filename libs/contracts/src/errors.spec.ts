import { ERROR_INFO, ErrorCode, VaultError } from './errors';

describe(VaultError.name, () => {
  it('gives every code an HTTP status and a message', () => {
    for (const code of Object.values(ErrorCode)) {
      expect(ERROR_INFO[code].status).toBeGreaterThanOrEqual(400);
      expect(ERROR_INFO[code].message.length).toBeGreaterThan(0);
    }
  });

  it('uses the spec texts for sign-in and sign-up failures', () => {
    expect(new VaultError(ErrorCode.INVALID_CREDENTIALS).message).toBe('Invalid credentials');
    expect(new VaultError(ErrorCode.USERNAME_TAKEN).message).toBe('Username already taken');
    expect(new VaultError(ErrorCode.EMAIL_TAKEN).message).toBe('Email already registered');
    expect(new VaultError(ErrorCode.EMERGENCY_VERIFICATION_REQUIRED).message).toBe(
      'Unusual activity detected. Please verify your identity with additional information.',
    );
    expect(ERROR_INFO.ACCOUNT_LOCKED.status).toBe(423);
  });

  it('survives the trip over RPC with its extra fields', () => {
    const err = new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter: 600 });
    const back = VaultError.fromPayload(JSON.parse(JSON.stringify(err.toPayload())));
    expect(back).toBeInstanceOf(VaultError);
    expect(back?.code).toBe('ACCOUNT_LOCKED');
    expect(back?.extra.retryAfter).toBe(600);
    expect(back?.status).toBe(423);
  });

  it('refuses payloads that are not domain errors', () => {
    expect(VaultError.fromPayload({ code: 'NOPE', message: 'x' })).toBeUndefined();
    expect(VaultError.fromPayload('boom')).toBeUndefined();
    expect(VaultError.fromPayload(null)).toBeUndefined();
  });
});
