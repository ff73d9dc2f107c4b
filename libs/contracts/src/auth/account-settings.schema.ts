import { z } from 'zod';
import { strictBody } from '../common/validation';

/**
 * GET/PUT /api/auth/settings: per-account choices. `malwareFingerprintCheck` is the opt-in of
 * docs/architecture.md "Virus scanning of end-to-end encrypted files": when on, the client sends
 * the SHA-256 of each upload's plaintext with upload-complete so the scan worker can match it
 * against known malware.
 */
export const accountSettingsSchema = strictBody({
  malwareFingerprintCheck: z.boolean({ error: 'malwareFingerprintCheck must be true or false' }),
});
export type AccountSettings = z.output<typeof accountSettingsSchema>;
