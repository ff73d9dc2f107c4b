import { ErrorCode, loginBodySchema, signupBodySchema, VaultError } from '@vault/contracts';
import { NOT_AN_OBJECT_MESSAGE, ZodPipe } from './zod.pipe';

const validSignup = {
  username: 'alice',
  email: 'Alice@Example.com',
  phoneNumber: '+1 555 0100',
  authKey: 'a'.repeat(64),
  salt: 'b'.repeat(32),
  kdfParams: { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
  wrappedVaultKey: `${'c'.repeat(96)}:${'d'.repeat(24)}`,
};

function failure(pipe: ZodPipe<never>, value: unknown): VaultError {
  try {
    pipe.transform(value);
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error('expected the pipe to refuse the value');
}

describe(ZodPipe.name, () => {
  const signup = new ZodPipe(signupBodySchema) as unknown as ZodPipe<never>;

  it('returns the schema output (e-mail lower-cased) for a valid body', () => {
    const out = new ZodPipe(signupBodySchema).transform(validSignup);
    expect(out.email).toBe('alice@example.com');
    expect(out.kdfParams).toEqual(validSignup.kdfParams);
  });

  it('answers with the first failing rule when several rules fail', () => {
    const error = failure(signup, {
      ...validSignup,
      username: 'ab',
      email: 'not-an-email',
      phoneNumber: 'x',
    });
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.status).toBe(400);
    expect(error.message).toBe('Username must be at least 3 characters long');
  });

  it('checks the e-mail before the phone number, in the spec order', () => {
    expect(failure(signup, { ...validSignup, email: 'nope', phoneNumber: 'x' }).message).toBe(
      'Please enter a valid email address',
    );
    expect(failure(signup, { ...validSignup, phoneNumber: 'call me' }).message).toBe(
      'Please enter a valid phone number',
    );
  });

  it('says "Please fill in all fields" when a required field is missing', () => {
    const { username: _u, ...rest } = validSignup;
    expect(failure(signup, rest).message).toBe('Please fill in all fields');
  });

  it('refuses unknown fields', () => {
    const login = new ZodPipe(loginBodySchema) as unknown as ZodPipe<never>;
    const error = failure(login, { identifier: 'alice', authKey: 'a'.repeat(64), isAdmin: true });
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toBe('Unknown field: isAdmin');
  });

  it.each([[undefined], [null], ['text'], [[1, 2]], [42]])(
    'refuses a body that is not a JSON object (%p)',
    (value) => {
      expect(failure(signup, value).message).toBe(NOT_AN_OBJECT_MESSAGE);
    },
  );
});
