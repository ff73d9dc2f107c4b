import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, VaultError, type RpcAuth } from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { accountRateLimit, routeBucket } from '../security/rate-limit.guard';
import { AUTH_MODE, type AuthMode } from './auth.decorators';
import { bearerToken, JwtVerifier } from './jwt-verifier';
import { SessionLiveness } from './session-liveness';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, set by JwtAuthGuard once the token and the session check out. */
    auth?: RpcAuth;
  }
}

/**
 * Global guard: bearer JWT (EdDSA, aud/iss/exp/iat), then session liveness in Redis. Missing
 * or bad token: 401 UNAUTHENTICATED; valid token of an ended session: 401 SESSION_REVOKED.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: JwtVerifier,
    private readonly sessions: SessionLiveness,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const mode =
      this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'required';
    // Admin routes take no bearer token: AdminGuard checks the admin cookie's session instead.
    if (mode === 'public' || mode === 'admin') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    try {
      request.auth = await this.authenticate(request, context);
    } catch (error) {
      if (mode === 'optional' && error instanceof VaultError && error.status === 401) return true;
      throw error;
    }
    return true;
  }

  private async authenticate(request: FastifyRequest, context: ExecutionContext): Promise<RpcAuth> {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    const auth = await this.verifier.verify(token);
    if (routeBucket(this.reflector, context) === 'api') {
      // The session check and the account's rate-limit hit in one Redis round trip (RateLimitGuard
      // then uses the answer); an ended session counts nothing.
      const [key, rule] = accountRateLimit(this.config, auth.userId);
      const answer = await this.sessions.liveAndCounted(auth.sessionId, key, rule);
      if (!answer) throw new VaultError(ErrorCode.SESSION_REVOKED);
      request.apiRateLimit = answer;
    } else if (!(await this.sessions.isLive(auth.sessionId))) {
      throw new VaultError(ErrorCode.SESSION_REVOKED);
    }
    return auth;
  }
}
