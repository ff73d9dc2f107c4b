import { z } from 'zod';
import { hexBytes, sealedKey, uuidV4 } from '../common/formats';
import { kdfParamsSchema } from '../common/kdf';
import { FILL_ALL_FIELDS, plainText, strictBody } from '../common/validation';
import { authKeySchema, EMAIL_RE, saltSchema, SIGNUP_LIMITS } from './auth-bodies.schema';

/**
 * Account recovery (docs/api.md "Recovery": recovery/*, security-questions, legacy-keys;
 * docs/crypto-protocol.md "Recovery"). The server never sees a recovery key, an
 * answer or a password: only recoveryAuth / answersAuth / authKey, which it stores as slow
 * hashes, and keys sealed on the device.
 */

/** Spec section 9 and the verify answers' text (the spec: "the user has 10 minutes"). */
export const RECOVERY_LIMITS = {
  codeDigits: 6,
  codeTtlSeconds: 15 * 60,
  codeMaxAttempts: 5,
  bypassTtlSeconds: 10 * 60,
  questions: 3,
  questionMin: 10,
  questionMax: 500,
  answerMin: 3,
} as const;

export const RECOVERY_MESSAGES = {
  emailRequired: 'Please enter your email address',
  email: 'Please enter a valid email address',
  code: 'Please enter the 6-digit recovery code',
  answersRequired: 'Please answer all security questions',
  questions:
    'Please provide 3 complete security questions with answers (questions min 10 chars, answers min 3 chars)',
  questionTooLong: 'Security question is too long',
  questionChars: 'Security questions must not contain control characters',
  /** The answer of email-code, the same whether or not the address has an account. */
  codeSent: 'If an account exists for this email, a recovery code has been sent. It expires in 15 minutes.',
  verified: 'Verification successful. You have 10 minutes to set a new password.',
  keepVaultKeyNeedsRecoveryKey: 'Only a recovery-key recovery can keep the vault key',
} as const;

const recoveryEmail = plainText(RECOVERY_MESSAGES.email, RECOVERY_MESSAGES.emailRequired)
  .trim()
  .min(1, RECOVERY_MESSAGES.emailRequired)
  .max(SIGNUP_LIMITS.emailMax, RECOVERY_MESSAGES.email)
  .regex(EMAIL_RE, RECOVERY_MESSAGES.email)
  .transform((v) => v.toLowerCase());

/** recoveryAuth and answersAuth: hex(HKDF(...)), 32 bytes. */
const recoveryAuthSchema = hexBytes(32, 'Invalid recovery key');
const answersAuthSchema = hexBytes(32, RECOVERY_MESSAGES.answersRequired);

/** A bypass token as verify-* hands it out (base64url of 32 random bytes). */
export const bypassTokenSchema = plainText('Invalid recovery token', FILL_ALL_FIELDS)
  .min(1, FILL_ALL_FIELDS)
  .max(128, 'Invalid recovery token');

export const recoveryEmailCodeBodySchema = strictBody({ email: recoveryEmail });
export type RecoveryEmailCodeBody = z.output<typeof recoveryEmailCodeBodySchema>;

export const recoveryVerifyEmailBodySchema = strictBody({
  email: recoveryEmail,
  code: z
    .string({ error: RECOVERY_MESSAGES.code })
    .regex(new RegExp(`^\\d{${RECOVERY_LIMITS.codeDigits}}$`), RECOVERY_MESSAGES.code),
});
export type RecoveryVerifyEmailBody = z.output<typeof recoveryVerifyEmailBodySchema>;

export const recoverySetupKeyBodySchema = strictBody({
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
  recoveryAuth: recoveryAuthSchema,
  recoveryWrappedVaultKey: sealedKey(),
});
export type RecoverySetupKeyBody = z.output<typeof recoverySetupKeyBodySchema>;

export const recoveryVerifyKeyBodySchema = strictBody({
  email: recoveryEmail,
  recoveryAuth: recoveryAuthSchema,
});
export type RecoveryVerifyKeyBody = z.output<typeof recoveryVerifyKeyBodySchema>;

/** Questions only: the answers never leave the device (their min length is checked there). */
const questionSchema = z.strictObject({
  question: plainText(RECOVERY_MESSAGES.questionChars, RECOVERY_MESSAGES.questions)
    .trim()
    .min(RECOVERY_LIMITS.questionMin, RECOVERY_MESSAGES.questions)
    .max(RECOVERY_LIMITS.questionMax, RECOVERY_MESSAGES.questionTooLong),
});

export const recoverySetupQuestionsBodySchema = strictBody({
  questions: z
    .array(questionSchema, { error: RECOVERY_MESSAGES.questions })
    .length(RECOVERY_LIMITS.questions, RECOVERY_MESSAGES.questions),
  questionsSalt: saltSchema,
  answersAuth: answersAuthSchema,
});
export type RecoverySetupQuestionsBody = z.output<typeof recoverySetupQuestionsBodySchema>;

export const recoveryGetQuestionsBodySchema = strictBody({ email: recoveryEmail });
export type RecoveryGetQuestionsBody = z.output<typeof recoveryGetQuestionsBodySchema>;

export const recoveryVerifyQuestionsBodySchema = strictBody({
  email: recoveryEmail,
  answersAuth: answersAuthSchema,
});
export type RecoveryVerifyQuestionsBody = z.output<typeof recoveryVerifyQuestionsBodySchema>;

/** A 2FA code (6 digits) or a backup code (XXXX-XXXX), when the account has 2FA on. */
export const recoveryResetBodySchema = strictBody({
  bypassToken: bypassTokenSchema,
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
  salt: saltSchema,
  kdfParams: kdfParamsSchema,
  wrappedVaultKey: sealedKey(),
  newVaultKey: z.boolean({ error: FILL_ALL_FIELDS }),
  code: plainText('Invalid verification code').max(16, 'Invalid verification code').optional(),
  backupCode: plainText('Invalid backup code').max(16, 'Invalid backup code').optional(),
});
export type RecoveryResetBody = z.output<typeof recoveryResetBodySchema>;

export const legacyKeyIdParamSchema = z.strictObject({ id: uuidV4 });
export type LegacyKeyIdParam = z.output<typeof legacyKeyIdParamSchema>;

// Answers.

export const recoveryMessageResponseSchema = z.object({ message: z.string() });
export type RecoveryMessageResponse = z.infer<typeof recoveryMessageResponseSchema>;

export const recoveryVerifiedResponseSchema = z.object({ bypassToken: z.string(), message: z.string() });
export type RecoveryVerifiedResponse = z.infer<typeof recoveryVerifiedResponseSchema>;

export const recoveryKeyVerifiedResponseSchema = recoveryVerifiedResponseSchema.extend({
  recoveryWrappedVaultKey: z.string(),
});
export type RecoveryKeyVerifiedResponse = z.infer<typeof recoveryKeyVerifiedResponseSchema>;

export const securityQuestionsResponseSchema = z.object({ questions: z.array(z.string()) });
export type SecurityQuestionsResponse = z.infer<typeof securityQuestionsResponseSchema>;

export const recoveryQuestionsResponseSchema = z.object({
  questions: z.array(z.string()),
  questionsSalt: z.string(),
  kdfParams: kdfParamsSchema,
});
export type RecoveryQuestionsResponse = z.infer<typeof recoveryQuestionsResponseSchema>;

export const legacyKeyDtoSchema = z.object({
  id: z.string(),
  wrappedVaultKey: z.string(),
  salt: z.string(),
  kdfParams: kdfParamsSchema,
  createdAt: z.string(),
});
export type LegacyKeyDto = z.infer<typeof legacyKeyDtoSchema>;

export const legacyKeysResponseSchema = z.object({ keys: z.array(legacyKeyDtoSchema) });
export type LegacyKeysResponse = z.infer<typeof legacyKeysResponseSchema>;

// Jobs.

/** The auth service's mail queue (producer and consumer are both the auth process). */
export const MAIL_QUEUE = 'mail';
export const RECOVERY_CODE_MAIL_JOB = 'recovery-code';

/**
 * A recovery-code mail. The code travels sealed (AES-256-GCM under a key derived from the
 * server secret) so that Redis never holds it in clear, even while the job waits.
 */
export const recoveryCodeMailJobSchema = z.strictObject({
  to: z.string().min(3).max(SIGNUP_LIMITS.emailMax),
  sealedCode: z.string().min(1).max(512),
});
export type RecoveryCodeMailJob = z.output<typeof recoveryCodeMailJobSchema>;
