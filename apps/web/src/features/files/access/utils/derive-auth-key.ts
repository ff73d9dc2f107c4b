import type { ApiClient } from '../../../../lib/api-client';
import { prelogin } from '../../../../lib/session/prelogin';
import type { CryptoService } from '../../../../workers/crypto-service';

/**
 * The password typed into the prompt, turned into `authKey` on this device exactly as sign-in
 * does (docs/crypto-protocol.md "Account keys"): the account's salt and KDF parameters from prelogin,
 * then the KDF and HKDF in the crypto worker. The password never leaves the device. The worker
 * also keeps a wrapping key for a sign-in; file access does not need it, so it is dropped at once.
 */
export async function deriveAuthKey(
  api: ApiClient,
  crypto: CryptoService,
  identifier: string,
  password: string,
): Promise<string> {
  const material = await prelogin(api, identifier);
  const prepared = await crypto.prepareLogin(password, material);
  crypto.discard(prepared.handle);
  return prepared.authKey;
}
