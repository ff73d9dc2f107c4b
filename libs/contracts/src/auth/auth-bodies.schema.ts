import { z } from 'zod';
import { hexBytes, sealedKey, uuidV4 } from '../common/formats';
import { kdfParamsSchema } from '../common/kdf';
import { FILL_ALL_FIELDS, plainText, requiredString, strictBody } from '../common/validation';

/** Sign-up limits and the spec's messages (section 5, "Sign-up", checked in this order). */
export const SIGNUP_LIMITS = { usernameMin: 3, usernameMax: 64, emailMax: 254, phoneMax: 32 } as const;
export const SIGNUP_MESSAGES = {
  fillAll: FILL_ALL_FIELDS,
  usernameShort: 'Username must be at least 3 characters long',
  usernameLong: 'Username must be at most 64 characters long',
  usernameChars: 'Username may only contain letters, numbers, dots, hyphens and underscores',
  usernameLetter: 'Username must contain at least one letter',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  // Rules 3-5 (password length, classes, confirmation) are checked on the device:
  // the password never reaches the server (docs/crypto-protocol.md "Account keys").
  passwordShort: 'Password must be at least 8 characters long',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordMismatch: 'Passwords do not match',
} as const;

/** No whitespace, control character or lone surrogate anywhere (each part at least one character). */
export const EMAIL_RE = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+\.[^\s@\p{Cc}\p{Cs}]+$/u;
/** Digits with spaces, hyphens and parentheses, and an optional leading +. */
export const PHONE_RE = /^\+?[\d \-()]+$/;
export const USERNAME_RE = /^[A-Za-z0-9._-]+$/;
/**
 * A username must hold a letter: one made of digits and punctuation could read as a phone
 * number, and sign-in tells identifiers apart by their shape (docs: "Identifiers").
 */
export const USERNAME_LETTER_RE = /[A-Za-z]/;

/** The sign-in identifier: a username, an e-mail address or a phone number. */
export const IDENTIFIER_MESSAGES = {
  tooLong: 'Identifier is too long',
  invalid: 'Identifier contains invalid characters',
} as const;
export const identifierSchema = requiredString(
  SIGNUP_LIMITS.emailMax,
  IDENTIFIER_MESSAGES.tooLong,
  IDENTIFIER_MESSAGES.invalid,
).describe(
  'Its shape decides what it names: with @ an e-mail address; digits, spaces, -, ( and ) with an ' +
    'optional leading + a phone number (compared by its digits and leading +; numbers are unique); ' +
    'anything else a username (which must contain a letter). Control characters answer 400.',
);

/**
 * A sign-up text: present and not too long here; its characters are judged by the format rules
 * of the refinement below (which refuse control characters), so the spec's order of messages holds.
 */
const signupText = (max: number, tooLong: string) =>
  z.string({ error: FILL_ALL_FIELDS }).trim().min(1, FILL_ALL_FIELDS).max(max, tooLong);

const AUTH_KEY_MESSAGE = 'Invalid authentication key';
export const authKeySchema = hexBytes(32, AUTH_KEY_MESSAGE);
export const saltSchema = hexBytes(16, 'Invalid salt');

export const signupBodySchema = strictBody({
  username: signupText(256, SIGNUP_MESSAGES.usernameLong),
  email: signupText(SIGNUP_LIMITS.emailMax, SIGNUP_MESSAGES.email),
  phoneNumber: signupText(SIGNUP_LIMITS.phoneMax, SIGNUP_MESSAGES.phone),
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS),
  salt: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS),
  kdfParams: z.custom<unknown>((v) => v !== undefined && v !== null, { error: FILL_ALL_FIELDS }),
  wrappedVaultKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS),
  recovery: z.strictObject({ recoveryAuth: authKeySchema, recoveryWrappedVaultKey: sealedKey() }).optional(),
})
  .superRefine((body, ctx) => {
    // Spec order: length, then (device-only password rules), then email, then phone.
    const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (body.username.length < SIGNUP_LIMITS.usernameMin)
      return fail(SIGNUP_MESSAGES.usernameShort, 'username');
    if (body.username.length > SIGNUP_LIMITS.usernameMax)
      return fail(SIGNUP_MESSAGES.usernameLong, 'username');
    if (!USERNAME_RE.test(body.username)) return fail(SIGNUP_MESSAGES.usernameChars, 'username');
    if (!USERNAME_LETTER_RE.test(body.username)) return fail(SIGNUP_MESSAGES.usernameLetter, 'username');
    if (!EMAIL_RE.test(body.email)) return fail(SIGNUP_MESSAGES.email, 'email');
    if (!PHONE_RE.test(body.phoneNumber) || !/\d/.test(body.phoneNumber))
      return fail(SIGNUP_MESSAGES.phone, 'phoneNumber');
    if (!authKeySchema.safeParse(body.authKey).success) return fail(AUTH_KEY_MESSAGE, 'authKey');
    if (!saltSchema.safeParse(body.salt).success) return fail('Invalid salt', 'salt');
    const kdf = kdfParamsSchema.safeParse(body.kdfParams);
    if (!kdf.success) return fail(kdf.error.issues[0]?.message ?? 'Invalid KDF parameters', 'kdfParams');
    if (!sealedKey().safeParse(body.wrappedVaultKey).success)
      return fail('Invalid wrapped key', 'wrappedVaultKey');
  })
  .transform((body) => ({
    ...body,
    email: body.email.toLowerCase(),
    kdfParams: kdfParamsSchema.parse(body.kdfParams),
  }));
export type SignupBody = z.output<typeof signupBodySchema>;

export const preloginBodySchema = strictBody({ identifier: identifierSchema });
export type PreloginBody = z.output<typeof preloginBodySchema>;

export const preloginResponseSchema = z.object({ salt: z.string(), kdfParams: kdfParamsSchema });
export type PreloginResponse = z.infer<typeof preloginResponseSchema>;

export const loginBodySchema = strictBody({
  identifier: identifierSchema,
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
  totpCode: plainText('Invalid verification code').max(16, 'Invalid verification code').optional(),
});
export type LoginBody = z.output<typeof loginBodySchema>;

export const changePasswordBodySchema = strictBody({
  currentAuthKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
  salt: saltSchema,
  kdfParams: kdfParamsSchema,
  wrappedVaultKey: sealedKey(),
});
export type ChangePasswordBody = z.output<typeof changePasswordBodySchema>;

export const sessionIdParamSchema = z.strictObject({ id: uuidV4 });
export type SessionIdParam = z.output<typeof sessionIdParamSchema>;

/** RPC body of `auth.refresh`: the gateway passes the refresh cookie's value. */
export const refreshBodySchema = z.strictObject({
  refreshToken: plainText('Invalid refresh token')
    .min(1, 'Invalid refresh token')
    .max(512, 'Invalid refresh token'),
});
export type RefreshBody = z.output<typeof refreshBodySchema>;

/**
 * RPC body of `auth.logout`: the refresh cookie's value when the browser sent one. Logout always
 * succeeds, so a cookie that cannot be a token is taken as no cookie.
 */
export const logoutBodySchema = z.strictObject({
  refreshToken: plainText('Invalid refresh token').max(512).optional().catch(undefined),
});
export type LogoutBody = z.output<typeof logoutBodySchema>;
