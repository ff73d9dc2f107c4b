import { describe, expect, it } from 'vitest';
import { isValidCode, sanitizeBackupCode, sanitizeCode, TWO_FACTOR_MESSAGES } from './two-factor';

describe('2FA inputs (spec section 5)', () => {
  it('keeps digits only in the code, at most 6', () => {
    expect(sanitizeCode('12a3 4-5678')).toBe('123456');
    expect(isValidCode('123456')).toBe(true);
    expect(isValidCode('12345')).toBe(false);
    expect(TWO_FACTOR_MESSAGES.code).toBe('Please enter the 6-digit verification code');
  });

  it('uppercases the backup code, keeps A-F, 0-9 and hyphen, at most 9', () => {
    expect(sanitizeBackupCode('ab12-cd34')).toBe('AB12-CD34');
    expect(sanitizeBackupCode('zz9g-q1!x')).toBe('9-1');
    expect(sanitizeBackupCode('ABCD-EF012345')).toBe('ABCD-EF01');
    expect(TWO_FACTOR_MESSAGES.backupCode).toBe('Please enter a backup code');
  });
});
