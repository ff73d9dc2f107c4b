/**
 * A small HTTP client for black-box tests: one `ApiClient` is one "browser". It keeps its own cookie jar
 * (honouring Path, Max-Age and Expires, like a browser does for the refresh cookie scoped to /api/auth),
 * holds the current access token, and returns status, headers, the parsed JSON body and the Set-Cookie lines.
 */
import { REFRESH_COOKIE } from '@vault/contracts';
import { e2eEnv } from './env';

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names lowercased; flags (HttpOnly, Secure) map to `true`. */
  attributes: Record<string, string | true>;
  raw: string;
}

export function parseSetCookie(raw: string): SetCookie {
  const [pair = '', ...attrs] = raw.split(';');
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
  const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
  const attributes: Record<string, string | true> = {};
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
    if (key) attributes[key] = i < 0 ? true : attr.slice(i + 1).trim();
  }
  return { name, value, attributes, raw };
}

/** True when a Set-Cookie line deletes its cookie (empty value, Max-Age <= 0 or Expires in the past). */
export function isCookieCleared(cookie: SetCookie): boolean {
  const maxAge = cookie.attributes['max-age'];
  if (typeof maxAge === 'string' && Number(maxAge) <= 0) return true;
  const expires = cookie.attributes['expires'];
  if (typeof expires === 'string' && Date.parse(expires) <= Date.now()) return true;
  return cookie.value === '';
}

interface StoredCookie {
  value: string;
  path: string;
}

function defaultCookiePath(requestPath: string): string {
  const i = requestPath.lastIndexOf('/');
  return i <= 0 ? '/' : requestPath.slice(0, i);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  store(cookie: SetCookie, requestPath: string): void {
    const path =
      typeof cookie.attributes['path'] === 'string'
        ? cookie.attributes['path']
        : defaultCookiePath(requestPath);
    const key = `${cookie.name};${path}`;
    if (isCookieCleared(cookie)) this.cookies.delete(key);
    else this.cookies.set(key, { value: cookie.value, path });
  }

  /** The Cookie header a browser would send to this path. */
  headerFor(requestPath: string): string | undefined {
    const pairs: string[] = [];
    for (const [key, c] of this.cookies) {
      if (pathMatches(requestPath, c.path)) pairs.push(`${key.slice(0, key.indexOf(';'))}=${c.value}`);
    }
    return pairs.length ? pairs.join('; ') : undefined;
  }

  get(name: string): string | undefined {
    for (const [key, c] of this.cookies) if (key.slice(0, key.indexOf(';')) === name) return c.value;
    return undefined;
  }

  set(name: string, value: string, path = '/'): void {
    this.delete(name);
    this.cookies.set(`${name};${path}`, { value, path });
  }

  delete(name: string): void {
    for (const key of [...this.cookies.keys()])
      if (key.slice(0, key.indexOf(';')) === name) this.cookies.delete(key);
  }
}

export interface RequestOptions {
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as is (give Content-Type in headers). */
  body?: string;
  headers?: Record<string, string>;
  /** Bearer token: default the client's `access`; `null` sends none. */
  token?: string | null;
  /** Send the jar's cookies (default true) and store the answer's. */
  cookies?: boolean;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else undefined. */
  body: T;
  text: string;
  setCookies: SetCookie[];
  /** The Set-Cookie line for this cookie name, if the answer had one. */
  cookie(name: string): SetCookie | undefined;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly userAgent: string;
  readonly jar = new CookieJar();
  /** The access token sent as Bearer by default. */
  access: string | undefined;

  constructor(
    readonly name = 'browser',
    opts: { baseUrl?: string; userAgent?: string } = {},
  ) {
    this.baseUrl = opts.baseUrl ?? e2eEnv().baseUrl;
    this.userAgent = opts.userAgent ?? `vault-e2e/${name}`;
  }

  /** The refresh token this browser holds (the HttpOnly cookie). */
  get refreshToken(): string | undefined {
    return this.jar.get(REFRESH_COOKIE.name);
  }

  async request<T = unknown>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
    const token = opts.token === undefined ? this.access : opts.token;
    if (token) headers['authorization'] = `Bearer ${token}`;
    const useCookies = opts.cookies ?? true;
    if (useCookies) {
      const cookie = this.jar.headerFor(url.pathname);
      if (cookie) headers['cookie'] = cookie;
    }
    let body: string | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.body !== undefined) {
      body = opts.body;
    }
    Object.assign(headers, opts.headers);
    const init: RequestInit = { method, headers, redirect: 'manual' };
    if (body !== undefined) init.body = body;
    const res = await fetch(url, init);
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let parsed: unknown = undefined;
    if (text && contentType.includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const setCookies = res.headers.getSetCookie().map(parseSetCookie);
    if (useCookies) for (const c of setCookies) this.jar.store(c, url.pathname);
    return {
      status: res.status,
      headers: res.headers,
      body: parsed as T,
      text,
      setCookies,
      cookie: (name) => setCookies.find((c) => c.name === name),
    };
  }

  get<T = unknown>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, opts);
  }

  post<T = unknown>(path: string, json?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, json === undefined ? opts : { ...opts, json });
  }

  put<T = unknown>(path: string, json?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, json === undefined ? opts : { ...opts, json });
  }

  delete<T = unknown>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, opts);
  }
}

/** Throws with the answer's status and body when it is not the expected one (for set-up steps). */
export function assertStatus<T>(res: ApiResponse<T>, expected: number, what: string): ApiResponse<T> {
  if (res.status !== expected) {
    throw new Error(`${what}: expected HTTP ${expected}, got ${res.status}: ${res.text.slice(0, 500)}`);
  }
  return res;
}
