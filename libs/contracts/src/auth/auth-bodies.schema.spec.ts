import { DEFAULT_KDF_PARAMS } from '../common/kdf';
import { parseFirst } from '../common/validation';
import {
  changePasswordBodySchema,
  loginBodySchema,
  SIGNUP_MESSAGES,
  signupBodySchema,
} from './auth-bodies.schema';

const valid = {
  username: 'alice_01',
  email: 'Alice@Example.org',
  phoneNumber: '+1 (555) 123-4567',
  authKey: 'a'.repeat(64),
  salt: 'b'.repeat(32),
  kdfParams: DEFAULT_KDF_PARAMS,
  wrappedVaultKey: `${'c'.repeat(96)}:${'d'.repeat(24)}`,
};

const messageOf = (body: unknown) => {
  const r = parseFirst(signupBodySchema, body);
  return r.ok ? 'ok' : r.message;
};

describe('signupBodySchema', () => {
  it('accepts a complete body and lowercases the email', () => {
    const r = parseFirst(signupBodySchema, valid);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.email).toBe('alice@example.org');
  });

  it.each(['username', 'email', 'phoneNumber', 'authKey', 'salt', 'kdfParams', 'wrappedVaultKey'])(
    'answers "Please fill in all fields" when %s is missing',
    (field) => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      expect(messageOf(body)).toBe(SIGNUP_MESSAGES.fillAll);
    },
  );

  it('treats a blank field as missing', () => {
    expect(messageOf({ ...valid, email: '   ' })).toBe(SIGNUP_MESSAGES.fillAll);
  });

  it('reports missing fields before a short username (spec order)', () => {
    expect(messageOf({ ...valid, username: 'ab', phoneNumber: '' })).toBe(SIGNUP_MESSAGES.fillAll);
  });

  it('reports a short username before a bad email, and a bad email before a bad phone', () => {
    expect(messageOf({ ...valid, username: 'ab', email: 'nope' })).toBe(SIGNUP_MESSAGES.usernameShort);
    expect(messageOf({ ...valid, email: 'nope', phoneNumber: 'abc' })).toBe(SIGNUP_MESSAGES.email);
    expect(messageOf({ ...valid, phoneNumber: 'abc' })).toBe(SIGNUP_MESSAGES.phone);
  });

  it.each(['+44 20 7946 0958', '(555) 123-4567', '5551234567'])('accepts the phone number %s', (phone) => {
    expect(messageOf({ ...valid, phoneNumber: phone })).toBe('ok');
  });

  it.each(['555-CALL-NOW', '++1 555', '1+555', '---'])('refuses the phone number %s', (phone) => {
    expect(messageOf({ ...valid, phoneNumber: phone })).toBe(SIGNUP_MESSAGES.phone);
  });

  it.each(['a@b', 'a b@c.de', '@c.de', 'a@.de x'])('refuses the email %s', (email) => {
    expect(messageOf({ ...valid, email })).toBe(SIGNUP_MESSAGES.email);
  });

  it('refuses an unknown field by name', () => {
    expect(messageOf({ ...valid, password: 'hunter2' })).toBe('Unknown field: password');
  });

  it('refuses KDF parameters below the protocol floor', () => {
    expect(
      messageOf({ ...valid, kdfParams: { kdf: 'argon2id', memoryKiB: 1024, iterations: 3, parallelism: 1 } }),
    ).toBe('Invalid KDF parameters');
    expect(messageOf({ ...valid, kdfParams: { kdf: 'pbkdf2-sha256', iterations: 100000 } })).toBe(
      'Invalid KDF parameters',
    );
    expect(messageOf({ ...valid, kdfParams: { kdf: 'scrypt' } })).toBe('Invalid KDF parameters');
  });

  it('refuses malformed key material', () => {
    expect(messageOf({ ...valid, authKey: 'zz' })).toBe('Invalid authentication key');
    expect(messageOf({ ...valid, salt: 'ab' })).toBe('Invalid salt');
    expect(messageOf({ ...valid, wrappedVaultKey: 'abc:def' })).toBe('Invalid wrapped key');
  });

  it('refuses usernames with characters outside the allowed set', () => {
    expect(messageOf({ ...valid, username: 'bob@home' })).toBe(SIGNUP_MESSAGES.usernameChars);
  });

  it('refuses usernames without a letter (they could read as phone numbers)', () => {
    for (const username of ['5558168859', '555-816-8859', '555.816.8859', '___']) {
      expect(messageOf({ ...valid, username })).toBe(SIGNUP_MESSAGES.usernameLetter);
    }
    expect(messageOf({ ...valid, username: 'r2d2' })).toBe('ok');
  });

  it('refuses control characters in the e-mail and the phone number, in the spec order', () => {
    expect(messageOf({ ...valid, email: 'a\u0000b@example.com' })).toBe(SIGNUP_MESSAGES.email);
    expect(messageOf({ ...valid, email: 'ab@exa\u0085mple.com' })).toBe(SIGNUP_MESSAGES.email);
    expect(messageOf({ ...valid, phoneNumber: '555\n0100' })).toBe(SIGNUP_MESSAGES.phone);
    // The username's length is still the first message when both are wrong.
    expect(messageOf({ ...valid, username: 'ab', email: 'a\u0000b@example.com' })).toBe(
      SIGNUP_MESSAGES.usernameShort,
    );
  });
});

describe('loginBodySchema', () => {
  it('needs an identifier and an authKey', () => {
    expect(parseFirst(loginBodySchema, { identifier: 'alice' })).toMatchObject({
      ok: false,
      message: 'Please fill in all fields',
    });
    expect(parseFirst(loginBodySchema, { identifier: 'alice', authKey: 'f'.repeat(64) }).ok).toBe(true);
  });

  it('never accepts a password field', () => {
    expect(
      parseFirst(loginBodySchema, { identifier: 'alice', password: 'x', authKey: 'f'.repeat(64) }),
    ).toMatchObject({
      ok: false,
      message: 'Unknown field: password',
    });
  });
});

describe('changePasswordBodySchema', () => {
  it('accepts the re-wrapped key material', () => {
    const r = parseFirst(changePasswordBodySchema, {
      currentAuthKey: 'a'.repeat(64),
      authKey: 'b'.repeat(64),
      salt: 'c'.repeat(32),
      kdfParams: DEFAULT_KDF_PARAMS,
      wrappedVaultKey: valid.wrappedVaultKey,
    });
    expect(r.ok).toBe(true);
  });
});
