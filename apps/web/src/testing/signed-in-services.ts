import { createAppServices, type AppServices } from '../app/services';
import { memoryKeyStore } from '../lib/key-store';
import { DEFAULT_RUNTIME_CONFIG } from '../lib/runtime-config';
import { memoryStorage } from '../lib/storage';
import { FakeCryptoService } from './fake-crypto';
import { TEST_USER, fakeJwt } from './fake-server';

/**
 * The app's services over `fetch` (a fake API), signed in as TEST_USER and unlocked with
 * `vaultKey`: what the feature harnesses render their screens with.
 */
export async function signedInServices(
  fetch: typeof globalThis.fetch,
  vaultKey: CryptoKey,
): Promise<AppServices> {
  const services = createAppServices({
    config: DEFAULT_RUNTIME_CONFIG,
    storage: memoryStorage(),
    keyStore: memoryKeyStore(),
    crypto: new FakeCryptoService(),
    fetch,
  });
  await services.session.signIn({ user: TEST_USER, access: fakeJwt(), vaultKey, stayUnlocked: false });
  return services;
}
