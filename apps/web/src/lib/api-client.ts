import { ErrorCode } from '@vault/contracts';
import { API_MESSAGES, ApiError } from './api-error';

export { API_MESSAGES, ApiError, isApiError, messageOf } from './api-error';

/**
 * The one HTTP client of the web app (docs/architecture.md "Code conventions"). Every call goes to the API base
 * with credentials included (the HttpOnly refresh cookie), JSON in and out, and the bearer access
 * token when one is held. Spec section 8 ("General"):
 *
 * - errors carry the status and the answer's `error` text, else 'HTTP {status}'; a network
 *   failure is status 0 'Network error';
 * - on 401 or 500 from a non-credential path while a token is held, the token is refreshed (one
 *   refresh at a time: concurrent callers wait for the same one; after a failed refresh, 30 s of
 *   'Token refresh in cooldown period') and the call is retried once. If that fails the session
 *   hook runs (clear the user, 'Authentication failed', go to the login path after 100 ms).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON when present. */
  body?: unknown;
  signal?: AbortSignal;
  /** 'text': a successful answer is read as text (a CSV download), not JSON. */
  responseAs?: 'text';
}

export interface ApiClientHooks {
  /** The access token held in memory, or null when signed out. */
  getAccessToken(): string | null;
  /** A refresh produced a new access token. */
  setAccessToken(token: string): void;
  /** The session could not be renewed: sign the user out. Called once per failed call. */
  onAuthFailure(error: ApiError): void;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  refreshCooldownMs?: number;
  hooks?: ApiClientHooks;
}

/** Spec section 9: "Refresh failure cooldown: 30 seconds". */
export const REFRESH_COOLDOWN_MS = 30_000;

/**
 * Calls that prove credentials rather than use the session: their 401 means "wrong credentials",
 * never "token expired", so they are not refreshed and retried.
 */
const CREDENTIAL_PATHS = new Set([
  '/auth/prelogin',
  '/auth/signup',
  '/auth/login',
  '/auth/refresh',
  '/auth/logout',
  '/auth/2fa/login',
  '/auth/2fa/backup-login',
  '/auth/verify-emergency',
  '/auth/recovery/email-code',
  '/auth/recovery/verify-email',
  '/auth/recovery/verify-key',
  '/auth/recovery/get-questions',
  '/auth/recovery/verify-questions',
  '/auth/recovery/reset',
]);

/** 401 codes the gateway gives for a missing, expired or ended session (apps/gateway/src/auth). */
const SESSION_ERROR_CODES: ReadonlySet<string> = new Set<string>([
  ErrorCode.UNAUTHENTICATED,
  ErrorCode.SESSION_REVOKED,
]);

export function isCredentialPath(path: string): boolean {
  return CREDENTIAL_PATHS.has(path.split('?')[0] ?? path);
}

interface RawResponse {
  status: number;
  headers: Headers;
  data: unknown;
}

const noHooks: ApiClientHooks = {
  getAccessToken: () => null,
  setAccessToken: () => undefined,
  onAuthFailure: () => undefined,
};

export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly cooldownMs: number;
  private hooks: ApiClientHooks;
  private refreshing: Promise<string> | null = null;
  private cooldownUntil = 0;

  constructor(options: ApiClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '/api').replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? Date.now;
    this.cooldownMs = options.refreshCooldownMs ?? REFRESH_COOLDOWN_MS;
    this.hooks = options.hooks ?? noHooks;
  }

  /**
   * This client's base URL, fetch and clock without the session hooks, for a client of another
   * session: the admin console's, held in its own HttpOnly cookie (no bearer token, no refresh).
   */
  sessionlessOptions(): ApiClientOptions {
    return {
      baseUrl: this.baseUrl,
      fetch: this.fetchImpl,
      now: this.now,
      refreshCooldownMs: this.cooldownMs,
    };
  }

  /** Connects the client to the session (done once by the app's providers). */
  setHooks(hooks: ApiClientHooks): void {
    this.hooks = hooks;
  }

  get<T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...options, method: 'GET' });
  }

  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...options, method: 'POST', body });
  }

  put<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...options, method: 'PUT', body });
  }

  delete<T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...options, method: 'DELETE' });
  }

  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const token = this.hooks.getAccessToken();
    let res = await this.send(path, options, token);
    if (token && this.shouldRefresh(path, res)) {
      let fresh: string;
      try {
        // Another caller may have refreshed while this call was in flight: use its token.
        const current = this.hooks.getAccessToken();
        fresh = current && current !== token ? current : await this.refreshAccessToken();
      } catch {
        throw this.authFailure();
      }
      res = await this.send(path, options, fresh);
      if (res.status === 401) throw this.authFailure();
    }
    if (res.status < 200 || res.status >= 300) throw toApiError(res);
    return res.data as T;
  }

  /**
   * POST /auth/refresh with the cookie. Single-flight: while one runs, every caller gets the
   * same promise. A failure starts the cooldown, during which calls fail at once.
   */
  refreshAccessToken(): Promise<string> {
    if (this.refreshing) return this.refreshing;
    if (this.now() < this.cooldownUntil) {
      return Promise.reject(new ApiError(401, API_MESSAGES.refreshCooldown));
    }
    const run = this.doRefresh().then(
      (token) => {
        this.cooldownUntil = 0;
        this.hooks.setAccessToken(token);
        return token;
      },
      (error: unknown) => {
        this.cooldownUntil = this.now() + this.cooldownMs;
        throw error;
      },
    );
    this.refreshing = run.finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<string> {
    const res = await this.send('/auth/refresh', { method: 'POST' }, null);
    if (res.status !== 200) throw new ApiError(res.status, API_MESSAGES.refreshFailed(res.status));
    const access = isRecord(res.data) ? res.data['access'] : undefined;
    if (typeof access !== 'string' || access === '') {
      throw new ApiError(res.status, API_MESSAGES.noAccessToken);
    }
    return access;
  }

  private shouldRefresh(path: string, res: RawResponse): boolean {
    if (isCredentialPath(path)) return false;
    if (res.status === 500) return true;
    if (res.status !== 401) return false;
    // Only a 401 about the session itself is worth a refresh. One about what the caller typed (a wrong
    // current password, a wrong file password, a wrong 2FA or backup code) is not a session problem:
    // refreshing and retrying would only end the session.
    const code = isRecord(res.data) ? res.data['code'] : undefined;
    return code === undefined || SESSION_ERROR_CODES.has(String(code));
  }

  private authFailure(): ApiError {
    const error = new ApiError(401, API_MESSAGES.authFailed);
    this.hooks.onAuthFailure(error);
    return error;
  }

  private async send(path: string, options: RequestOptions, token: string | null): Promise<RawResponse> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers['Authorization'] = `Bearer ${token}`;
    const init: RequestInit = {
      method: options.method ?? 'GET',
      headers,
      credentials: 'include',
      cache: 'no-store',
    };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    if (options.signal) init.signal = options.signal;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, init);
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(0, API_MESSAGES.network);
    }
    let data: unknown;
    if (options.responseAs === 'text' && response.ok) {
      data = await response.text();
    } else if (response.status !== 204 && (response.headers.get('content-type') ?? '').includes('json')) {
      try {
        data = await response.json();
      } catch {
        data = undefined;
      }
    }
    return { status: response.status, headers: response.headers, data };
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `error` is an aborted fetch or operation (an AbortSignal fired). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function toApiError(res: RawResponse): ApiError {
  const body = isRecord(res.data) ? res.data : undefined;
  const text = body && typeof body['error'] === 'string' && body['error'] ? body['error'] : undefined;
  const code = body && typeof body['code'] === 'string' ? body['code'] : undefined;
  let retryAfter = body && typeof body['retryAfter'] === 'number' ? body['retryAfter'] : undefined;
  if (retryAfter === undefined) {
    const header = Number(res.headers.get('retry-after'));
    if (Number.isFinite(header) && header > 0) retryAfter = header;
  }
  const init: { code?: string; body?: Record<string, unknown>; retryAfter?: number } = {};
  if (code !== undefined) init.code = code;
  if (body !== undefined) init.body = body;
  if (retryAfter !== undefined) init.retryAfter = retryAfter;
  return new ApiError(res.status, text ?? API_MESSAGES.http(res.status), init);
}
