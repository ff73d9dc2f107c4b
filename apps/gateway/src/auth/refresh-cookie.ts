import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, REFRESH_COOKIE, VaultError, type WithRefresh } from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type CookieSecureMode, type GatewayConfig } from '../config/gateway.config';
import { parseCookieHeader, serializeCookie, type CookieOptions } from './cookie-codec';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host name of a Host header value, without port; IPv6 keeps its brackets. */
export function hostnameOf(host: string | undefined): string {
  const value = (host ?? '').trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  return value.split(':')[0] ?? '';
}

/** COOKIE_SECURE: `auto` is Secure except on localhost, where browsers may run plain http. */
export function isSecureCookie(mode: CookieSecureMode, host: string | undefined): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return !LOCAL_HOSTS.has(hostnameOf(host));
}

/** A credential cookie (refresh, admin): HttpOnly, SameSite=Strict, scoped to `path`. */
export function strictCookieOptions(
  path: string,
  mode: CookieSecureMode,
  host: string | undefined,
  maxAgeSeconds?: number,
): CookieOptions {
  const options: CookieOptions = {
    path,
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureCookie(mode, host),
  };
  if (maxAgeSeconds !== undefined) options.maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  return options;
}

/** The refresh cookie (docs/api.md "Authentication"): HttpOnly, SameSite=Strict, scoped to /api/auth. */
export function refreshCookieOptions(
  mode: CookieSecureMode,
  host: string | undefined,
  maxAgeSeconds?: number,
): CookieOptions {
  return strictCookieOptions(REFRESH_COOKIE.path, mode, host, maxAgeSeconds);
}

/** Reads, sets and clears the refresh cookie; auth never sees HTTP, the gateway never sees sessions. */
@Injectable()
export class RefreshCookies {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  read(request: FastifyRequest): string | undefined {
    const value = parseCookieHeader(request.headers.cookie)[REFRESH_COOKIE.name];
    return value ? value : undefined;
  }

  require(request: FastifyRequest): string {
    const value = this.read(request);
    if (!value) throw new VaultError(ErrorCode.UNAUTHENTICATED, 'No refresh token');
    return value;
  }

  /**
   * Unpacks an auth answer: sets the cookie when it carries a refresh grant (none inside the
   * refresh grace window: the cookie is then left alone) and returns only the public body.
   */
  apply<T>(request: FastifyRequest, reply: FastifyReply, answer: WithRefresh<T>): T {
    if (typeof answer !== 'object' || answer === null || !('body' in answer)) {
      throw new Error('auth answered without the {body, refresh?} envelope');
    }
    const grant = answer.refresh;
    if (grant && typeof grant.token === 'string' && grant.token) {
      reply.header(
        'set-cookie',
        serializeCookie(
          REFRESH_COOKIE.name,
          grant.token,
          refreshCookieOptions(this.config.cookieSecure, request.host, grant.maxAgeSeconds),
        ),
      );
    }
    return answer.body;
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    const options = refreshCookieOptions(this.config.cookieSecure, request.host, 0);
    reply.header(
      'set-cookie',
      serializeCookie(REFRESH_COOKIE.name, '', { ...options, expires: new Date(0) }),
    );
  }
}
