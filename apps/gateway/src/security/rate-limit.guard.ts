import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, VaultError } from '@vault/contracts';
import { RedisRateLimiter, redisKeys } from '@vault/server-kit';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from './rate-limit.decorator';

/**
 * Global guard, registered after JwtAuthGuard so that a signed-in caller is counted per
 * user, and before AdminGuard so that admin calls (counted per IP) are limited before each
 * costs a session check in auth. Each bucket counts in a one-minute window of server-kit's RedisRateLimiter
 * (`rl:gw-{bucket}:ip:{ip}` or `…:user:{id}`). Over the limit: 429 RATE_LIMITED with retryAfter
 * and a Retry-After header.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RedisRateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const bucket =
      this.reflector.getAllAndOverride<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'api';
    if (bucket === 'none') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const [key, limit] = this.keyAndLimit(bucket, request);
    let verdict;
    try {
      verdict = await this.limiter.hit(redisKeys.rateLimit(`gw-${bucket}`, key), { limit, windowMs: 60_000 });
    } catch {
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
    if (!verdict.allowed) {
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: verdict.retryAfter });
    }
    return true;
  }

  private keyAndLimit(bucket: Exclude<RateLimitBucket, 'none'>, request: FastifyRequest): [string, number] {
    switch (bucket) {
      case 'auth':
        return [`ip:${request.ip}`, this.config.rateLimit.authPerMinute];
      case 'blob':
        return [`ip:${request.ip}`, this.config.rateLimit.blobPerMinute];
      default: {
        // Signed-in callers count per account, others per IP. Admin routes count per IP: this
        // guard runs before AdminGuard asks auth who the admin is (request.auth is never set there).
        const account = request.auth?.userId;
        return [account ? `user:${account}` : `ip:${request.ip}`, this.config.rateLimit.apiPerMinute];
      }
    }
  }
}
