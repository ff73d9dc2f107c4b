import { z } from 'zod';
import { FILL_ALL_FIELDS, plainText, strictBody } from '../common/validation';
import { authKeySchema, identifierSchema } from './auth-bodies.schema';
import { authResponseSchema } from './user.schema';

/**
 * Two-factor authentication and backup codes (docs/api.md "Two-step verification").
 * The formats are checked loosely here (a wrong code is a 401 from the service, not a 400),
 * only sizes and presence are the gateway's business.
 */

/** Spec section 5: the messages of the code fields. */
export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Please enter verification code',
  backupCodeRequired: 'Please enter a backup code',
  invalidCode: 'Invalid verification code',
  invalidBackupCode: 'Invalid backup code',
  proofRequired: 'Please enter a verification code or your password',
} as const;

/** RFC 6238 as the product uses it: SHA-1, 6 digits, 30 s steps, ±1 step accepted. */
export const TOTP_PARAMS = { digits: 6, periodSeconds: 30, toleranceSteps: 1, issuer: 'Vault' } as const;
export const BACKUP_CODE_COUNT = 10;
/** `XXXX-XXXX` from A-F0-9 (the hyphen is optional on input, and case does not matter). */
export const BACKUP_CODE_DISPLAY_RE = /^[A-F0-9]{4}-[A-F0-9]{4}$/;
/** A backup-code answer warns when this many or fewer codes remain. */
export const BACKUP_CODES_WARN_AT = 2;

const codeField = plainText(TWO_FACTOR_MESSAGES.invalidCode, TWO_FACTOR_MESSAGES.codeRequired)
  .trim()
  .min(1, TWO_FACTOR_MESSAGES.codeRequired)
  .max(16, TWO_FACTOR_MESSAGES.invalidCode);
const backupCodeField = plainText(
  TWO_FACTOR_MESSAGES.invalidBackupCode,
  TWO_FACTOR_MESSAGES.backupCodeRequired,
)
  .trim()
  .min(1, TWO_FACTOR_MESSAGES.backupCodeRequired)
  .max(16, TWO_FACTOR_MESSAGES.invalidBackupCode);
const identifierField = identifierSchema;
const authKeyField = z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema);

/** POST /api/auth/2fa/enable: nothing to send (the account is the caller's). */
export const twoFactorEnableBodySchema = strictBody({});
export type TwoFactorEnableBody = z.output<typeof twoFactorEnableBodySchema>;
export const twoFactorEnableResponseSchema = z.object({
  otpauthUrl: z
    .string()
    .describe('otpauth://totp/Vault:<email>?secret=...&issuer=Vault (show it as a QR code)'),
});
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponseSchema>;

/** POST /api/auth/2fa/verify: the first code from the app turns 2FA on. */
export const twoFactorVerifyBodySchema = strictBody({ code: codeField });
export type TwoFactorVerifyBody = z.output<typeof twoFactorVerifyBodySchema>;

export const backupCodesResponseSchema = z.object({
  backupCodes: z
    .array(z.string().regex(BACKUP_CODE_DISPLAY_RE))
    .describe('10 codes, XXXX-XXXX, each usable once'),
});
export type BackupCodesResponse = z.infer<typeof backupCodesResponseSchema>;

/** Disable / regenerate: a current TOTP code or the account's authKey, exactly one of them. */
export const twoFactorProofBodySchema = strictBody({
  code: codeField.optional(),
  authKey: authKeyField.optional(),
}).refine((b) => (b.code === undefined) !== (b.authKey === undefined), {
  message: TWO_FACTOR_MESSAGES.proofRequired,
});
export type TwoFactorProofBody = z.output<typeof twoFactorProofBodySchema>;

export const backupCodesInfoResponseSchema = z.object({
  unusedCodesCount: z.number().int().min(0),
  totalCodes: z.number().int().min(0),
  generated: z.string().nullable().describe('When the current set was made (ISO 8601), null without one'),
});
export type BackupCodesInfoResponse = z.infer<typeof backupCodesInfoResponseSchema>;

/** POST /api/auth/2fa/login: the sign-in again, with the authenticator code. */
export const twoFactorLoginBodySchema = strictBody({
  identifier: identifierField,
  authKey: authKeyField,
  code: codeField,
});
export type TwoFactorLoginBody = z.output<typeof twoFactorLoginBodySchema>;

/** POST /api/auth/2fa/backup-login: the sign-in again, with a backup code. */
export const backupLoginBodySchema = strictBody({
  identifier: identifierField,
  authKey: authKeyField,
  backupCode: backupCodeField,
});
export type BackupLoginBody = z.output<typeof backupLoginBodySchema>;

/** What proves the second factor: an authenticator code or a backup code. */
export interface SecondFactorProof {
  code?: string;
  backupCode?: string;
}

/** The answer of a backup-code sign-in: a sign-in answer that may warn about the codes left. */
export const backupLoginResponseSchema = authResponseSchema.extend({
  warningMessage: z
    .string()
    .optional()
    .describe("e.g. 'You have 2 backup codes left. Generate new ones in Settings.'"),
});
