import { SIGNUP_MESSAGES } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import { passwordChecks, validateSignup, type SignupFields } from './signup-validation';

const valid: SignupFields = {
  username: 'alice',
  email: 'alice@example.org',
  phoneNumber: '+1 (555) 123-4567',
  password: 'Correct-horse-1',
  confirmPassword: 'Correct-horse-1',
};
const check = (patch: Partial<SignupFields>) => validateSignup({ ...valid, ...patch });

describe('validateSignup (spec section 5, in order)', () => {
  it('accepts a complete, valid form', () => {
    expect(validateSignup(valid)).toBeNull();
  });

  it.each(['username', 'email', 'phoneNumber', 'password', 'confirmPassword'] as const)(
    "1. 'Please fill in all fields' when %s is empty",
    (field) => {
      expect(check({ [field]: '' })).toBe('Please fill in all fields');
      expect(SIGNUP_MESSAGES.fillAll).toBe('Please fill in all fields');
    },
  );

  it('1. treats blank text fields as empty', () => {
    expect(check({ email: '   ' })).toBe(SIGNUP_MESSAGES.fillAll);
  });

  it("2. 'Username must be at least 3 characters long'", () => {
    expect(check({ username: 'al' })).toBe('Username must be at least 3 characters long');
    expect(check({ username: ' al ' })).toBe('Username must be at least 3 characters long');
  });

  it("3. 'Password must be at least 8 characters long'", () => {
    expect(check({ password: 'Aa1aaaa', confirmPassword: 'Aa1aaaa' })).toBe(
      'Password must be at least 8 characters long',
    );
  });

  it('4. lowercase, then uppercase, then number', () => {
    expect(check({ password: 'ABCDEFG1', confirmPassword: 'ABCDEFG1' })).toBe(
      'Password must contain at least one lowercase letter',
    );
    expect(check({ password: 'abcdefg1', confirmPassword: 'abcdefg1' })).toBe(
      'Password must contain at least one uppercase letter',
    );
    expect(check({ password: 'Abcdefgh', confirmPassword: 'Abcdefgh' })).toBe(
      'Password must contain at least one number',
    );
  });

  it("5. 'Passwords do not match'", () => {
    expect(check({ confirmPassword: 'Correct-horse-2' })).toBe('Passwords do not match');
  });

  it("6. 'Please enter a valid email address'", () => {
    for (const email of ['alice', 'alice@', 'alice@example', 'a b@example.org', '@example.org']) {
      expect(check({ email })).toBe('Please enter a valid email address');
    }
  });

  it("7. 'Please enter a valid phone number'", () => {
    for (const phoneNumber of ['555-CALL-NOW', '++1 555', '1+555', '---', '+']) {
      expect(check({ phoneNumber })).toBe('Please enter a valid phone number');
    }
    for (const phoneNumber of ['+44 20 7946 0958', '(555) 123-4567', '5551234567']) {
      expect(check({ phoneNumber })).toBeNull();
    }
  });

  it('checks the rules in the spec order when several fail', () => {
    const allBad = {
      username: 'al',
      password: 'short',
      confirmPassword: 'other',
      email: 'x',
      phoneNumber: 'y',
    };
    expect(check(allBad)).toBe(SIGNUP_MESSAGES.usernameShort);
    expect(check({ ...allBad, username: 'alice' })).toBe(SIGNUP_MESSAGES.passwordShort);
    expect(check({ ...allBad, username: 'alice', password: 'longenough' })).toBe(
      SIGNUP_MESSAGES.passwordUpper,
    );
    expect(check({ ...allBad, username: 'alice', password: 'Longenough1' })).toBe(
      SIGNUP_MESSAGES.passwordMismatch,
    );
    expect(
      check({ ...allBad, username: 'alice', password: 'Longenough1', confirmPassword: 'Longenough1' }),
    ).toBe(SIGNUP_MESSAGES.email);
    expect(
      check({ username: 'alice', password: 'Longenough1', confirmPassword: 'Longenough1', phoneNumber: 'y' }),
    ).toBe(SIGNUP_MESSAGES.phone);
  });

  it("then the server's username rules, before any key derivation", () => {
    expect(check({ username: 'bob@home' })).toBe(SIGNUP_MESSAGES.usernameChars);
    expect(check({ username: '5558168859' })).toBe(SIGNUP_MESSAGES.usernameLetter);
    expect(check({ username: '555-816-8859' })).toBe(SIGNUP_MESSAGES.usernameLetter);
    expect(check({ username: 'a'.repeat(65) })).toBe(SIGNUP_MESSAGES.usernameLong);
  });
});

describe('passwordChecks (the live checklist)', () => {
  it('reports each rule', () => {
    expect(passwordChecks('', '')).toEqual({
      length: false,
      lowercase: false,
      uppercase: false,
      number: false,
      match: false,
    });
    expect(passwordChecks('abc', 'abc')).toMatchObject({ lowercase: true, uppercase: false, match: true });
    expect(passwordChecks('ABCdef12', 'ABCdef1')).toEqual({
      length: true,
      lowercase: true,
      uppercase: true,
      number: true,
      match: false,
    });
  });
});
