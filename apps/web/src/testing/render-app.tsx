import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { routes } from '../app/router';
import { AppProviders, createAppServices, type AppServices } from '../app/services';
import { memoryKeyStore } from '../lib/key-store';
import { DEFAULT_RUNTIME_CONFIG, type RuntimeConfig } from '../lib/runtime-config';
import { writeSavedUser } from '../lib/session/saved-user';
import { memoryStorage } from '../lib/storage';
import { FakeCryptoService } from './fake-crypto';
import { FakeServer, TEST_USER, fakeJwt } from './fake-server';

export interface RenderAppOptions {
  path?: string;
  /** Seeds the saved user (a reload of a signed-in tab). */
  signedIn?: boolean;
  /** With `signedIn`: the vault key is kept on this device ("Stay unlocked"). */
  unlocked?: boolean;
  server?: FakeServer;
  config?: Partial<RuntimeConfig>;
  /** userEvent option for fake timers. */
  advanceTimers?: (ms: number) => unknown;
}

/** Renders the whole app (real routes, providers, session) over a fake API and fake crypto. */
export async function renderApp(options: RenderAppOptions = {}) {
  const server = options.server ?? new FakeServer().withSession();
  const crypto = new FakeCryptoService();
  const storage = memoryStorage();
  const keyStore = memoryKeyStore();
  if (options.signedIn) {
    writeSavedUser(storage, { id: TEST_USER.id, email: TEST_USER.email, token: fakeJwt() });
    if (options.unlocked) await keyStore.save(TEST_USER.id, crypto.vaultKey);
  }
  const services: AppServices = createAppServices({
    config: { ...DEFAULT_RUNTIME_CONFIG, ...options.config },
    storage,
    keyStore,
    crypto,
    fetch: server.fetch as typeof fetch,
  });
  const router = createMemoryRouter(routes, { initialEntries: [options.path ?? '/'] });
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const view = render(
    <AppProviders services={services}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, services, router, server, crypto, storage, keyStore, user };
}
