import { z } from 'zod';
import { FILL_ALL_FIELDS, strictBody } from '../common/validation';
import { authKeySchema, SIGNUP_LIMITS } from './auth-bodies.schema';

/** The web's message when a field of the emergency step is empty (spec "Emergency step"). */
export const EMERGENCY_FILL_ALL = 'Please fill in all verification fields';

/**
 * POST /api/auth/verify-emergency: after a 418 the user proves the account's username and
 * phone number along with the password (as authKey).
 */
export const verifyEmergencyBodySchema = strictBody({
  identifier: z
    .string({ error: EMERGENCY_FILL_ALL })
    .trim()
    .min(1, EMERGENCY_FILL_ALL)
    .max(SIGNUP_LIMITS.emailMax, 'Identifier is too long'),
  username: z.string({ error: EMERGENCY_FILL_ALL }).trim().min(1, EMERGENCY_FILL_ALL).max(256),
  phoneNumber: z.string({ error: EMERGENCY_FILL_ALL }).trim().min(1, EMERGENCY_FILL_ALL).max(64),
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
});
export type VerifyEmergencyBody = z.output<typeof verifyEmergencyBodySchema>;
