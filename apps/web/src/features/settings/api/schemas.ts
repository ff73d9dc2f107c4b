import { z } from 'zod';

/**
 * The answers of the Settings calls (api-contract.md "Auth service"). Checked on arrival like every
 * answer (lib/parse-response.ts); a mismatch is 'Unexpected response from server', never guessed at.
 */
export const otpauthResponseSchema = z.object({ otpauthUrl: z.string().startsWith('otpauth://') });

export const backupCodesSchema = z.object({ backupCodes: z.array(z.string()).min(1) });

export const backupCodesInfoSchema = z.object({
  unusedCodesCount: z.number().int().min(0),
  totalCodes: z.number().int().min(0),
  generated: z.string().nullable().optional(),
});
export type BackupCodesInfo = z.infer<typeof backupCodesInfoSchema>;

export const securityQuestionsSchema = z.object({ questions: z.array(z.string()) });

export const accountSettingsSchema = z.object({ malwareFingerprintCheck: z.boolean() });
export type AccountSettings = z.infer<typeof accountSettingsSchema>;
