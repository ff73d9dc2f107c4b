/**
 * Cookie header parsing and Set-Cookie serialisation (RFC 6265), just what the refresh
 * cookie needs. Written here rather than taken from @fastify/cookie, which loads its parser
 * with a dynamic ESM import that Jest on Node 20 cannot run, so the medium tests could not
 * boot the real gateway with it.
 */

const NAME_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'strict' | 'lax';
  secure: boolean;
  /** Seconds. */
  maxAge?: number;
  expires?: Date;
}

function decode(value: string): string {
  const unquoted =
    value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  if (!unquoted.includes('%')) return unquoted;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}

/** Name → value of a Cookie header; the first of duplicate names wins. */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (!NAME_RE.test(name) || name in out) continue;
    out[name] = decode(part.slice(eq + 1).trim());
  }
  return out;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!NAME_RE.test(name)) throw new TypeError('invalid cookie name');
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAge))}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push(`SameSite=${options.sameSite === 'strict' ? 'Strict' : 'Lax'}`);
  return parts.join('; ');
}
