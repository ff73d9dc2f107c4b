import { authResponseSchema, type AuthResponse, type KdfParamsDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

export interface SignupRequest {
  username: string;
  email: string;
  phoneNumber: string;
  authKey: string;
  salt: string;
  kdfParams: KdfParamsDto;
  wrappedVaultKey: string;
  /** The recovery kit made on the device (docs/crypto-protocol.md "Recovery key"): proof and the key-wrapped vault key. */
  recovery?: { recoveryAuth: string; recoveryWrappedVaultKey: string };
}

/** POST /api/auth/signup: 201 {access, user, wrappedVaultKey} and the refresh cookie. */
export async function signup(api: ApiClient, body: SignupRequest): Promise<AuthResponse> {
  return parseResponse(authResponseSchema, await api.post('/auth/signup', body));
}
