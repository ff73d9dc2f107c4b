import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ADMIN_COOKIE,
  ADMIN_MESSAGES,
  ErrorCode,
  isAdminRole,
  meetsAdminRequirement,
  VaultError,
  type AdminSessionResponse,
  type RpcAdmin,
} from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { rpcContextOf } from '../proxy/rpc-context.decorator';
import { RpcClient } from '../proxy/rpc.client';
import { AdminCookies } from './admin-cookie';
import { ADMIN_REQUIREMENT, type AdminRequirement } from './admin.decorators';
import { AUTH_MODE, type AuthMode } from './auth.decorators';
import { bearerToken, JwtVerifier } from './jwt-verifier';
import { SessionLiveness } from './session-liveness';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admin behind an admin route, set by AdminGuard from auth's session check. */
    admin?: RpcAdmin;
    /** That check's answer (`GET /api/admin/session` returns it rather than checking twice). */
    adminSession?: AdminSessionResponse;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * CSRF defence of the admin API: a state-changing request that names another origin is refused.
 * The SameSite=Strict cookie already stays home; this also covers same-site sibling origins. A
 * request without Origin (curl, old clients) passes: it cannot carry a browser's ambient cookie
 * from another site anyway. The origins accepted are this one as the request names it
 * (`protocol://host`: behind a proxy, TRUST_PROXY makes those the client's) and CORS_ORIGINS.
 */
export function isCrossOrigin(request: FastifyRequest, publicOrigins: readonly string[] = []): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin?.toLowerCase();
  if (origin === undefined) return false;
  if (origin === `${request.protocol}://${request.host}`.toLowerCase()) return false;
  return !publicOrigins.some((allowed) => allowed.toLowerCase() === origin);
}

/**
 * Whether the route matched is under /api/admin: the route's own path, never the raw URL, which
 * may spell the same route differently (`/api/%61dmin/session`).
 */
export function isAdminRoute(request: FastifyRequest): boolean {
  const path = request.routeOptions?.url ?? '';
  return path === ADMIN_COOKIE.path || path.startsWith(`${ADMIN_COOKIE.path}/`);
}

/**
 * Global guard after JwtAuthGuard and RateLimitGuard, so a flood of admin calls is refused before
 * each asks auth (docs/api.md "Admin sign-in"). On every /api/admin route it
 * refuses a cross-origin state change (403 FORBIDDEN). On routes marked `@AdminOnly(requirement)`
 * it reads the admin cookie (none: 401), has auth check the session (which re-reads the account:
 * 401, or 403 ADMIN_REQUIRED / ADMIN_2FA_REQUIRED), then checks the requirement with the role and
 * permissions auth just read (403 PERMISSION_DENIED). A vault bearer token never opens the
 * console; without the cookie it only decides the refusal: a live one of a regular account
 * answers 403 ADMIN_REQUIRED (the contract's "403 for a regular user"), anything else 401.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rpc: RpcClient,
    private readonly cookies: AdminCookies,
    private readonly verifier: JwtVerifier,
    private readonly sessions: SessionLiveness,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'corsOrigins'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const mode = this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE, targets);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (mode !== 'admin' && !isAdminRoute(request)) return true;
    if (isCrossOrigin(request, this.config.corsOrigins)) throw new VaultError(ErrorCode.FORBIDDEN);
    if (mode !== 'admin') return true;

    const token = this.cookies.read(request);
    if (!token) throw await this.refusalWithoutCookie(request);
    const { session, key } = await this.rpc.call('auth.admin.session', rpcContextOf(request), { token });
    const { id, username, role, permissions } = session.admin;
    // The session's key lets each service re-check the admin against the session (readAdmin).
    const admin: RpcAdmin = { id, label: username, role, permissions, sessionKey: key };
    const requirement = this.reflector.getAllAndOverride<AdminRequirement | undefined>(
      ADMIN_REQUIREMENT,
      targets,
    );
    if (!meetsAdminRequirement(admin, requirement)) throw new VaultError(ErrorCode.PERMISSION_DENIED);
    request.admin = admin;
    request.adminSession = session;
    return true;
  }

  private async refusalWithoutCookie(request: FastifyRequest): Promise<VaultError> {
    const signIn = new VaultError(ErrorCode.UNAUTHENTICATED, ADMIN_MESSAGES.signInRequired);
    const bearer = bearerToken(request.headers.authorization);
    if (!bearer) return signIn;
    try {
      const auth = await this.verifier.verify(bearer);
      if (!isAdminRole(auth.role) && (await this.sessions.isLive(auth.sessionId))) {
        return new VaultError(ErrorCode.ADMIN_REQUIRED);
      }
    } catch {
      // A bad or expired token is no account at all: the plain 401.
    }
    return signIn;
  }
}
