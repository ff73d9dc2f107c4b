import { afterEach, describe, expect, it } from 'vitest';
import { validateNewPassword } from './new-password';
import { compactRecoveryKey, looksLikeRecoveryKey } from './recovery-key-text';
import {
  RECOVERY_BYPASS_KEY,
  RECOVERY_USER_KEY,
  clearRecoveryBypass,
  storeRecoveryBypass,
} from './recovery-session';

describe('new password rules (the sign-up ones, in order)', () => {
  it.each([
    ['', '', 'Please fill in all fields'],
    ['Ab1', 'Ab1', 'Password must be at least 8 characters long'],
    ['ABCDEFG1', 'ABCDEFG1', 'Password must contain at least one lowercase letter'],
    ['abcdefg1', 'abcdefg1', 'Password must contain at least one uppercase letter'],
    ['Abcdefgh', 'Abcdefgh', 'Password must contain at least one number'],
    ['Abcdefg1', 'Abcdefg2', 'Passwords do not match'],
  ])('%j / %j → %s', (password, confirm, message) => {
    expect(validateNewPassword(password, confirm)).toBe(message);
  });

  it('accepts a good password', () => {
    expect(validateNewPassword('Abcdefg1', 'Abcdefg1')).toBeNull();
  });
});

describe('recovery key text', () => {
  const key = 'ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567-ABCD-EFGH-IJKL-MNOP-QRST';

  it('ignores case, dashes and spaces', () => {
    expect(compactRecoveryKey(' abcd efgh-ijkl ')).toBe('ABCDEFGHIJKL');
    expect(looksLikeRecoveryKey(key)).toBe(true);
    expect(looksLikeRecoveryKey(key.toLowerCase().replace(/-/g, ' '))).toBe(true);
  });

  it('wants 52 base32 characters', () => {
    expect(looksLikeRecoveryKey(key.slice(0, -1))).toBe(false);
    expect(looksLikeRecoveryKey(key.replace('A', '1'))).toBe(false);
    expect(looksLikeRecoveryKey('')).toBe(false);
  });
});

describe('recovery session (spec: bypass token in session storage, temporary user temp-recovery)', () => {
  afterEach(() => sessionStorage.clear());

  it('stores and clears the token and the temporary user', () => {
    const user = storeRecoveryBypass('tok', 'a@example.org', 1234);
    expect(user).toEqual({ id: 'temp-recovery', email: 'a@example.org', expiresAt: 1234 });
    expect(sessionStorage.getItem(RECOVERY_BYPASS_KEY)).toBe('tok');
    expect(JSON.parse(sessionStorage.getItem(RECOVERY_USER_KEY) ?? 'null')).toEqual(user);
    clearRecoveryBypass();
    expect(sessionStorage.getItem(RECOVERY_BYPASS_KEY)).toBeNull();
    expect(sessionStorage.getItem(RECOVERY_USER_KEY)).toBeNull();
  });
});
