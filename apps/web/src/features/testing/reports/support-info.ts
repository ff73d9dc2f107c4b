import { storageTypesResponseSchema } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import type { RuntimeConfig } from '../../../lib/runtime-config';
import { healthAnswerSchema } from '../suites/api';

/** This browser, as far as it matters for the vault (Workers, WebCrypto, storage). */
export interface BrowserInfo {
  userAgent: string;
  language: string;
  hardwareConcurrency: number | null;
  crossOriginIsolated: boolean;
  secureContext: boolean;
  /** navigator.storage.estimate(), in bytes; null where the browser does not say. */
  storage: { usage: number; quota: number } | null;
}

/** What the page can see of the server's settings without any secret in it. */
export interface ServerSettings {
  config: RuntimeConfig;
  /** GET /api/files/storage-types: the configured kinds and the default; null without an answer. */
  storage: { types: string[]; default: string } | null;
  /** GET /api/health; null without an answer. */
  health: { status: string; services: Record<string, string> } | null;
}

/** Everything the support report needs besides the runs and the build. */
export interface SupportInfo {
  browser: BrowserInfo;
  server: ServerSettings;
  /** The signed-in user's own values (e-mail, its name part, id): removed from every line. */
  secrets: string[];
}

export async function readBrowserInfo(nav: Navigator = navigator, scope = globalThis): Promise<BrowserInfo> {
  let storage: BrowserInfo['storage'] = null;
  try {
    const estimate = await nav.storage?.estimate?.();
    if (estimate?.quota !== undefined) storage = { usage: estimate.usage ?? 0, quota: estimate.quota };
  } catch {
    // Some browsers refuse the estimate (private windows): the report says "unknown".
  }
  return {
    userAgent: nav.userAgent,
    language: nav.language,
    hardwareConcurrency: nav.hardwareConcurrency || null,
    crossOriginIsolated: Boolean(scope.crossOriginIsolated),
    secureContext: Boolean(scope.isSecureContext),
    storage,
  };
}

/** Storage types and health; each is null when its call fails (the report is still worth having). */
export async function readServerSettings(
  api: ApiClient,
  config: RuntimeConfig,
  signal: AbortSignal,
  fetchFn: typeof fetch = fetch,
): Promise<ServerSettings> {
  const [storage, health] = await Promise.all([
    api
      .get<unknown>('/files/storage-types', { signal })
      .then((body) => storageTypesResponseSchema.parse(body))
      .then((s) => ({ types: s.types.map((t) => t.type), default: s.default }))
      .catch(() => null),
    // A degraded server answers 503 with the same body: read it whatever the status.
    fetchFn(`${config.apiBaseUrl}/health`, { signal, credentials: 'same-origin' })
      .then((res) => res.json())
      .then((body) => healthAnswerSchema.parse(body))
      .catch(() => null),
  ]);
  return { config, storage, health };
}

/** The user's values the report must not carry, however a check spelled them. */
export function userSecrets(user: { id: string; email: string } | null | undefined): string[] {
  if (!user) return [];
  const name = user.email.split('@')[0] ?? '';
  return [user.email, user.id, name].filter((s) => s.length >= 3);
}
