/**
 * The e-mail-code access reset as a signed-out device does it (POST /api/auth/recovery/...): ask for a
 * code, read it from the run's mailbox, trade it for a bypass token, reset with a new vault key.
 */
import type { RecoveryMessageResponse, RecoveryVerifiedResponse } from '@vault/contracts';
import { createAccount } from '@vault/crypto';
import { FAST_KDF } from './accounts';
import { ApiClient, assertStatus, type ApiResponse } from './http';
import { recoveryCodeFor } from './mail';

export const RECOVERY = '/api/auth/recovery';

/** A secret a test typed or received, to be looked for at rest afterwards. */
export interface Secret {
  what: string;
  value: string;
}

/**
 * Asks for a code for `email` and answers the one in mail number `index` (0-based) to it. When given,
 * `secrets` gets the code, so that a test can check it is kept nowhere in clear.
 */
export async function mailCode(email: string, index = 0, secrets?: Secret[]): Promise<string> {
  const res = await new ApiClient('mail').post<RecoveryMessageResponse>(
    `${RECOVERY}/email-code`,
    { email },
    { token: null },
  );
  assertStatus(res, 200, 'email-code');
  const code = await recoveryCodeFor(email, index);
  secrets?.push({ what: 'e-mail code', value: code });
  return code;
}

/** POST verify-email as it comes: 200 with the bypass token, or the refusal. */
export function verifyEmail(email: string, code: string): Promise<ApiResponse<RecoveryVerifiedResponse>> {
  return new ApiClient('verify').post<RecoveryVerifiedResponse>(
    `${RECOVERY}/verify-email`,
    { email, code },
    { token: null },
  );
}

/** The client side of a reset that makes a new vault key (e-mail or questions recovery). */
export async function newVaultKeyBody(bypassToken: string, password: string) {
  const fresh = await createAccount(password, { kdfParams: FAST_KDF });
  return {
    bypassToken,
    authKey: fresh.authKey,
    salt: fresh.salt,
    kdfParams: fresh.kdfParams,
    wrappedVaultKey: fresh.wrappedVaultKey,
    newVaultKey: true,
  };
}
