import {
  EMAIL_RE,
  PHONE_RE,
  SIGNUP_LIMITS,
  SIGNUP_MESSAGES,
  USERNAME_LETTER_RE,
  USERNAME_RE,
} from '@vault/contracts';

export interface SignupFields {
  username: string;
  email: string;
  phoneNumber: string;
  password: string;
  confirmPassword: string;
}

/** The live checklist under the password (spec: 8+ characters, lowercase, uppercase, number, match). */
export interface PasswordChecks {
  length: boolean;
  lowercase: boolean;
  uppercase: boolean;
  number: boolean;
  match: boolean;
}

export const PASSWORD_MIN_LENGTH = 8;

export function passwordChecks(password: string, confirmPassword: string): PasswordChecks {
  return {
    length: password.length >= PASSWORD_MIN_LENGTH,
    lowercase: /\p{Ll}/u.test(password),
    uppercase: /\p{Lu}/u.test(password),
    number: /\p{Nd}/u.test(password),
    match: password.length > 0 && password === confirmPassword,
  };
}

/**
 * Spec section 5, "Sign-up", checked in this order; returns the first failing rule's message
 * (SIGNUP_MESSAGES of @vault/contracts) or null. Rules 3-5 run only here: the password never
 * reaches the server. After the spec's seven rules come the server's own username limits, so a
 * form the server would refuse never costs an Argon2id run.
 */
export function validateSignup(f: SignupFields): string | null {
  const username = f.username.trim();
  const email = f.email.trim();
  const phone = f.phoneNumber.trim();
  // 1. All fields required.
  if (!username || !email || !phone || !f.password || !f.confirmPassword) return SIGNUP_MESSAGES.fillAll;
  // 2. Username at least 3 characters.
  if (username.length < SIGNUP_LIMITS.usernameMin) return SIGNUP_MESSAGES.usernameShort;
  // 3. Password at least 8 characters.
  const checks = passwordChecks(f.password, f.confirmPassword);
  if (!checks.length) return SIGNUP_MESSAGES.passwordShort;
  // 4. Lowercase, uppercase, number.
  if (!checks.lowercase) return SIGNUP_MESSAGES.passwordLower;
  if (!checks.uppercase) return SIGNUP_MESSAGES.passwordUpper;
  if (!checks.number) return SIGNUP_MESSAGES.passwordNumber;
  // 5. Confirmation matches.
  if (f.password !== f.confirmPassword) return SIGNUP_MESSAGES.passwordMismatch;
  // 6. Email, simple format.
  if (!EMAIL_RE.test(email) || email.length > SIGNUP_LIMITS.emailMax) return SIGNUP_MESSAGES.email;
  // 7. Phone: optional leading plus, then digits, spaces, hyphens, parentheses (and at least one digit).
  if (!PHONE_RE.test(phone) || !/\d/.test(phone) || phone.length > SIGNUP_LIMITS.phoneMax) {
    return SIGNUP_MESSAGES.phone;
  }
  // The server's username limits (libs/contracts), checked before any key derivation.
  if (username.length > SIGNUP_LIMITS.usernameMax) return SIGNUP_MESSAGES.usernameLong;
  if (!USERNAME_RE.test(username)) return SIGNUP_MESSAGES.usernameChars;
  // A username of digits alone could read as a phone number at sign-in.
  if (!USERNAME_LETTER_RE.test(username)) return SIGNUP_MESSAGES.usernameLetter;
  return null;
}
