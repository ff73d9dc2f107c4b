import { z } from 'zod';
import { FILL_ALL_FIELDS, plainText, strictBody } from '../common/validation';
import { authKeySchema, IDENTIFIER_MESSAGES, SIGNUP_LIMITS } from './auth-bodies.schema';

/** The web's message when a field of the emergency step is empty (spec "Emergency step"). */
export const EMERGENCY_FILL_ALL = 'Please fill in all verification fields';
export const EMERGENCY_MESSAGES = {
  username: 'Please enter a valid username',
  phone: 'Please enter a valid phone number',
} as const;

/**
 * POST /api/auth/verify-emergency: after a 418 the user proves the account's username and
 * phone number along with the password (as authKey).
 */
export const verifyEmergencyBodySchema = strictBody({
  identifier: plainText(IDENTIFIER_MESSAGES.invalid, EMERGENCY_FILL_ALL)
    .trim()
    .min(1, EMERGENCY_FILL_ALL)
    .max(SIGNUP_LIMITS.emailMax, IDENTIFIER_MESSAGES.tooLong),
  username: plainText(EMERGENCY_MESSAGES.username, EMERGENCY_FILL_ALL)
    .trim()
    .min(1, EMERGENCY_FILL_ALL)
    .max(256, EMERGENCY_MESSAGES.username),
  phoneNumber: plainText(EMERGENCY_MESSAGES.phone, EMERGENCY_FILL_ALL)
    .trim()
    .min(1, EMERGENCY_FILL_ALL)
    .max(64, EMERGENCY_MESSAGES.phone),
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
});
export type VerifyEmergencyBody = z.output<typeof verifyEmergencyBodySchema>;
