/**
 * Runtime configuration (docs/architecture.md "Code conventions"): the gateway serves `/env-config.js`, which sets
 * `window.__VAULT_CONFIG__` before the app bundle runs, so one build serves every deployment.
 * Missing or invalid values fall back to the product defaults (spec section 9).
 */
export interface RuntimeConfig {
  /** Base of every API call. */
  apiBaseUrl: string;
  /** Sign out after this long without activity (10 minutes). */
  inactivityTimeoutMs: number;
  /** Show the 'Session Timeout Warning' this long before the timeout (60 seconds). */
  inactivityWarningMs: number;
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = Object.freeze({
  apiBaseUrl: '/api',
  inactivityTimeoutMs: 10 * 60 * 1000,
  inactivityWarningMs: 60 * 1000,
});

declare global {
  interface Window {
    __VAULT_CONFIG__?: unknown;
  }
}

const positiveInt = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

/** Reads and checks the values; anything unusable keeps its default. */
export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const src = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const timeout = positiveInt(src['inactivityTimeoutMs']) ?? DEFAULT_RUNTIME_CONFIG.inactivityTimeoutMs;
  let warning = positiveInt(src['inactivityWarningMs']) ?? DEFAULT_RUNTIME_CONFIG.inactivityWarningMs;
  if (warning >= timeout) warning = Math.floor(timeout / 2);
  return {
    apiBaseUrl: DEFAULT_RUNTIME_CONFIG.apiBaseUrl,
    inactivityTimeoutMs: timeout,
    inactivityWarningMs: warning,
  };
}

export function readRuntimeConfig(): RuntimeConfig {
  return parseRuntimeConfig(typeof window === 'undefined' ? undefined : window.__VAULT_CONFIG__);
}
