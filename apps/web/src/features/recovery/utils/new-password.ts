import { SIGNUP_MESSAGES } from '@vault/contracts';
import { passwordChecks } from '../../../lib/signup-validation';

/** The sign-up password rules (spec section 5, rules 1 and 3-5), in the same order and with the same texts. */
export function validateNewPassword(password: string, confirmPassword: string): string | null {
  if (!password || !confirmPassword) return SIGNUP_MESSAGES.fillAll;
  const checks = passwordChecks(password, confirmPassword);
  if (!checks.length) return SIGNUP_MESSAGES.passwordShort;
  if (!checks.lowercase) return SIGNUP_MESSAGES.passwordLower;
  if (!checks.uppercase) return SIGNUP_MESSAGES.passwordUpper;
  if (!checks.number) return SIGNUP_MESSAGES.passwordNumber;
  if (password !== confirmPassword) return SIGNUP_MESSAGES.passwordMismatch;
  return null;
}
