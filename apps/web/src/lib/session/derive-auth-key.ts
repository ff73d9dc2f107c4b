import type { CryptoService } from '../../workers/crypto-service';
import type { ApiClient } from '../api-client';
import { prelogin } from './prelogin';

/**
 * A password turned into `authKey` on this device exactly as the vault sign-in does (docs/crypto-protocol.md "Account keys"): the account's salt and KDF parameters from prelogin,
 * then the KDF and HKDF in the crypto worker. The password never leaves the device. The worker
 * also keeps a wrapping key for a sign-in; file access and the admin sign-in do not need it, so it is dropped at once.
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
