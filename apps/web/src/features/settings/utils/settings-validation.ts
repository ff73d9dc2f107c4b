import { RECOVERY_LIMITS, RECOVERY_MESSAGES, SIGNUP_MESSAGES, TWO_FACTOR_MESSAGES } from '@vault/contracts';
import { ApiError } from '../../../lib/api-client';
import { passwordChecks } from '../../../lib/signup-validation';

/** Spec section 5 "Settings" and section 8 "Settings": the screen's texts. */
export const SETTINGS_MESSAGES = {
  fillPasswords: 'Please fill in all password fields',
  passwordsMismatch: 'New passwords do not match',
  passwordShort: 'New password must be at least 8 characters',
  passwordSame: 'The new password must differ from the current one',
  wrongCurrentPassword: 'Current password is incorrect',
  passwordChanged: 'Password changed successfully',
  codeRequired: TWO_FACTOR_MESSAGES.codeRequired,
  invalidCode: TWO_FACTOR_MESSAGES.invalidCode,
  enableFailed: 'Failed to enable 2FA',
  disableFailed: 'Failed to disable 2FA',
  regenerateFailed: 'Failed to regenerate backup codes',
  regenerateWarning: 'This will invalidate all existing codes',
  questions: RECOVERY_MESSAGES.questions,
  questionsFailed: 'Failed to save security questions',
  passwordRequired: 'Please enter your password',
  wrongPassword: 'Incorrect password',
} as const;

export const QUESTION_MIN = RECOVERY_LIMITS.questionMin;
export const ANSWER_MIN = RECOVERY_LIMITS.answerMin;
export const QUESTION_COUNT = RECOVERY_LIMITS.questions;
export const CODE_LENGTH = 6;

export interface ChangePasswordFields {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Spec order: all three fields, then the match, then the 8-character minimum; then the sign-up
 * password rules (lowercase, uppercase, number), so a password change cannot weaken what sign-up
 * asks for. Returns the first failing rule's message or null.
 */
export function validateChangePassword(f: ChangePasswordFields): string | null {
  if (!f.currentPassword || !f.newPassword || !f.confirmPassword) return SETTINGS_MESSAGES.fillPasswords;
  if (f.newPassword !== f.confirmPassword) return SETTINGS_MESSAGES.passwordsMismatch;
  const checks = passwordChecks(f.newPassword, f.confirmPassword);
  if (!checks.length) return SETTINGS_MESSAGES.passwordShort;
  if (!checks.lowercase) return SIGNUP_MESSAGES.passwordLower;
  if (!checks.uppercase) return SIGNUP_MESSAGES.passwordUpper;
  if (!checks.number) return SIGNUP_MESSAGES.passwordNumber;
  if (f.newPassword === f.currentPassword) return SETTINGS_MESSAGES.passwordSame;
  return null;
}

export interface QuestionPair {
  question: string;
  answer: string;
}

/** Characters counted against the minimum: the trimmed length. */
export const countChars = (value: string): number => value.trim().length;

/** Exactly three pairs, each question ≥ 10 and each answer ≥ 3 characters after trimming. */
export function validateQuestions(pairs: QuestionPair[]): string | null {
  if (pairs.length !== QUESTION_COUNT) return SETTINGS_MESSAGES.questions;
  const ok = pairs.every((p) => countChars(p.question) >= QUESTION_MIN && countChars(p.answer) >= ANSWER_MIN);
  return ok ? null : SETTINGS_MESSAGES.questions;
}

/** The code field keeps digits only, at most six. */
export const digitsOnly = (value: string): string => value.replace(/\D/g, '').slice(0, CODE_LENGTH);

export const isSixDigits = (value: string): boolean => /^\d{6}$/.test(value);

/**
 * The text for a failed call: the server's own message when it is about the request (a wrong code,
 * a refused value: 4xx), else the spec's message for the action (a 5xx or the network).
 */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) {
    return error.message;
  }
  return fallback;
}
