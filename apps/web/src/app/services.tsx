import { createContext, useContext, type ReactNode } from 'react';
import { ApiClient, API_MESSAGES } from '../lib/api-client';
import { ApiClientProvider } from '../lib/api-context';
import { RuntimeConfigProvider } from '../lib/config-context';
import { indexedDbKeyStore, type VaultKeyStore } from '../lib/key-store';
import { loginPathFor } from '../lib/login-path';
import { QueryCache, QueryCacheProvider } from '../lib/query';
import { readRuntimeConfig, type RuntimeConfig } from '../lib/runtime-config';
import { SessionProvider } from '../lib/session/session-context';
import { SessionStore } from '../lib/session/session-store';
import { localStore, type KeyValueStorage } from '../lib/storage';
import { createCryptoService } from '../workers/crypto-client';
import { CryptoProvider } from '../workers/crypto-context';
import type { CryptoService } from '../workers/crypto-service';

/** Spec section 9: "Redirect after failure delay: 100 ms". */
export const AUTH_FAILURE_REDIRECT_MS = 100;

/** Lets code outside React (the API client's hooks) navigate with the router once it is mounted. */
export class NavigationBridge {
  private navigateFn: (to: string) => void = (to) => window.location.assign(to);
  private pathnameFn: () => string = () => window.location.pathname;

  attach(navigate: (to: string) => void, pathname: () => string): void {
    this.navigateFn = navigate;
    this.pathnameFn = pathname;
  }

  navigate(to: string): void {
    this.navigateFn(to);
  }

  pathname(): string {
    return this.pathnameFn();
  }
}

export interface AppServices {
  config: RuntimeConfig;
  storage: KeyValueStorage;
  keyStore: VaultKeyStore;
  session: SessionStore;
  api: ApiClient;
  crypto: CryptoService;
  cache: QueryCache;
  navigation: NavigationBridge;
}

export interface AppServiceOverrides {
  config?: RuntimeConfig;
  storage?: KeyValueStorage;
  keyStore?: VaultKeyStore;
  crypto?: CryptoService;
  fetch?: typeof fetch;
}

/**
 * Builds the app's services and connects the API client to the session: it reads the access
 * token from it, hands refreshed tokens back, and on an unrecoverable authentication failure
 * clears the session ('Authentication failed') and goes to the login path after 100 ms.
 */
export function createAppServices(overrides: AppServiceOverrides = {}): AppServices {
  const config = overrides.config ?? readRuntimeConfig();
  const storage = overrides.storage ?? localStore;
  const keyStore = overrides.keyStore ?? indexedDbKeyStore;
  const session = new SessionStore({ storage, keyStore });
  const cache = new QueryCache();
  const navigation = new NavigationBridge();
  const api = new ApiClient(
    overrides.fetch ? { baseUrl: config.apiBaseUrl, fetch: overrides.fetch } : { baseUrl: config.apiBaseUrl },
  );
  let redirect: ReturnType<typeof setTimeout> | undefined;
  api.setHooks({
    getAccessToken: () => session.getState().user?.token ?? null,
    setAccessToken: (token) => session.setAccessToken(token),
    onAuthFailure: () => {
      if (!session.getState().user) return;
      const path = navigation.pathname();
      void session.endSession(API_MESSAGES.authFailed);
      cache.clear();
      clearTimeout(redirect);
      redirect = setTimeout(() => navigation.navigate(loginPathFor(path)), AUTH_FAILURE_REDIRECT_MS);
    },
  });
  return {
    config,
    storage,
    keyStore,
    session,
    api,
    crypto: overrides.crypto ?? createCryptoService(),
    cache,
    navigation,
  };
}

const ServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useAppServices needs AppProviders');
  return services;
}

export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <ServicesContext.Provider value={services}>
      <RuntimeConfigProvider config={services.config}>
        <ApiClientProvider client={services.api}>
          <SessionProvider store={services.session}>
            <CryptoProvider service={services.crypto}>
              <QueryCacheProvider cache={services.cache}>{children}</QueryCacheProvider>
            </CryptoProvider>
          </SessionProvider>
        </ApiClientProvider>
      </RuntimeConfigProvider>
    </ServicesContext.Provider>
  );
}
