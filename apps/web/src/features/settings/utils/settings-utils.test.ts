import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { backupCodesText, recoveryKitText } from './kit-text';
import { groupSecret, parseOtpauthUrl } from './otpauth';
import {
  SETTINGS_MESSAGES,
  digitsOnly,
  failureText,
  isSixDigits,
  validateChangePassword,
  validateQuestions,
} from './settings-validation';
import { describeUserAgent } from './user-agent';

describe('validateChangePassword', () => {
  const ok = { currentPassword: 'Old-pass-1', newPassword: 'New-pass-22', confirmPassword: 'New-pass-22' };
  it('follows the spec order, then the sign-up rules', () => {
    expect(validateChangePassword({ ...ok, currentPassword: '' })).toBe('Please fill in all password fields');
    expect(validateChangePassword({ ...ok, confirmPassword: '' })).toBe('Please fill in all password fields');
    // Mismatch is checked before length (spec order).
    expect(validateChangePassword({ ...ok, newPassword: 'a', confirmPassword: 'b' })).toBe(
      'New passwords do not match',
    );
    expect(validateChangePassword({ ...ok, newPassword: 'Ab1', confirmPassword: 'Ab1' })).toBe(
      'New password must be at least 8 characters',
    );
    expect(validateChangePassword({ ...ok, newPassword: 'ABCDEFG1', confirmPassword: 'ABCDEFG1' })).toBe(
      'Password must contain at least one lowercase letter',
    );
    expect(validateChangePassword({ ...ok, newPassword: 'Old-pass-1', confirmPassword: 'Old-pass-1' })).toBe(
      SETTINGS_MESSAGES.passwordSame,
    );
    expect(validateChangePassword(ok)).toBeNull();
  });
});

describe('validateQuestions', () => {
  const pair = { question: 'What is your name?', answer: 'Bob' };
  it('needs exactly three pairs of trimmed lengths ≥ 10 and ≥ 3', () => {
    expect(validateQuestions([pair, pair, pair])).toBeNull();
    expect(validateQuestions([pair, pair])).toBe(SETTINGS_MESSAGES.questions);
    expect(validateQuestions([pair, pair, { ...pair, question: '  123456789  ' }])).toBe(
      SETTINGS_MESSAGES.questions,
    );
    expect(validateQuestions([pair, pair, { ...pair, answer: ' ab ' }])).toBe(SETTINGS_MESSAGES.questions);
  });
});

describe('codes', () => {
  it('keeps digits only, six at most', () => {
    expect(digitsOnly('12 a3-456 7')).toBe('123456');
    expect(isSixDigits('123456')).toBe(true);
    expect(isSixDigits('12345')).toBe(false);
  });
});

describe('failureText', () => {
  it("shows the server's 4xx message, and the action's message for 5xx, network and other errors", () => {
    expect(failureText(new ApiError(401, 'Invalid verification code'), 'Failed to disable 2FA')).toBe(
      'Invalid verification code',
    );
    expect(failureText(new ApiError(500, 'HTTP 500'), 'Failed to disable 2FA')).toBe('Failed to disable 2FA');
    expect(failureText(new ApiError(0, 'Network error'), 'Failed to disable 2FA')).toBe(
      'Failed to disable 2FA',
    );
    expect(failureText(new Error('x'), 'Failed')).toBe('Failed');
  });
});

describe('parseOtpauthUrl', () => {
  it('reads the secret, account and issuer', () => {
    expect(
      parseOtpauthUrl('otpauth://totp/Vault:alice%40example.org?secret=jbswy3dpehpk3pxp&issuer=Vault'),
    ).toEqual({ secret: 'JBSWY3DPEHPK3PXP', account: 'alice@example.org', issuer: 'Vault' });
    expect(parseOtpauthUrl('https://example.org/?secret=JBSW')).toBeNull();
    expect(parseOtpauthUrl('otpauth://totp/x?secret=not-base32!')).toBeNull();
    expect(parseOtpauthUrl('nonsense')).toBeNull();
    expect(groupSecret('JBSWY3DPEHPK3PXPAB')).toBe('JBSW Y3DP EHPK 3PXP AB');
  });
});

describe('describeUserAgent', () => {
  it('names common browsers and systems', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
      ),
    ).toBe('Safari 17 on macOS');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Headless Chrome 131 on Linux');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome 130 on Android');
    expect(describeUserAgent('')).toBe('Unknown device');
    expect(describeUserAgent('curl/8.5.0')).toBe('curl/8.5.0');
  });
});

describe('download texts', () => {
  const now = new Date('2026-11-22T04:00:00.000Z');
  it('backup codes file lists every code with the account and date', () => {
    const text = backupCodesText(['AAAA-1111', 'BBBB-2222'], 'alice@example.org', now);
    expect(text).toContain('Account: alice@example.org');
    expect(text).toContain('Generated: 2026-11-22T04:00:00.000Z');
    expect(text).toContain(' 1. AAAA-1111');
    expect(text).toContain(' 2. BBBB-2222');
  });
  it('recovery kit carries the key, the account, the date and instructions', () => {
    const text = recoveryKitText('ABCD-EFGH', 'alice <alice@example.org>', now);
    expect(text).toContain('Recovery key:\nABCD-EFGH');
    expect(text).toContain('Account: alice <alice@example.org>');
    expect(text).toContain('Created: 2026-11-22T04:00:00.000Z');
    expect(text).toMatch(/new recovery key in Settings makes this one stop working/);
  });
});
