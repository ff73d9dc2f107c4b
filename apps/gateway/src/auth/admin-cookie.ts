import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_COOKIE, type AdminSignInReply } from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { parseCookieHeader, serializeCookie } from './cookie-codec';
import { strictCookieOptions } from './refresh-cookie';

/**
 * The admin console's cookie (docs/api.md "Admin sign-in"): HttpOnly, SameSite=Strict, scoped to
 * /api/admin, Secure per COOKIE_SECURE, living to the session's absolute end. HttpOnly rather than
 * local storage so a script in the page (XSS) cannot read the token.
 */
@Injectable()
export class AdminCookies {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  read(request: FastifyRequest): string | undefined {
    const value = parseCookieHeader(request.headers.cookie)[ADMIN_COOKIE.name];
    return value ? value : undefined;
  }

  /** Sets the cookie when auth answered a session (not for the 2FA step); returns the public body. */
  apply(request: FastifyRequest, reply: FastifyReply, answer: AdminSignInReply): AdminSignInReply['body'] {
    if ('session' in answer) {
      const options = strictCookieOptions(
        ADMIN_COOKIE.path,
        this.config.cookieSecure,
        request.host,
        answer.session.maxAgeSeconds,
      );
      reply.header('set-cookie', serializeCookie(ADMIN_COOKIE.name, answer.session.token, options));
    }
    return answer.body;
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    const options = strictCookieOptions(ADMIN_COOKIE.path, this.config.cookieSecure, request.host, 0);
    reply.header('set-cookie', serializeCookie(ADMIN_COOKIE.name, '', { ...options, expires: new Date(0) }));
  }
}
