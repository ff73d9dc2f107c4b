import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, VaultError } from '@vault/contracts';
import { RedisRateLimiter, redisKeys, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from './rate-limit.decorator';

declare module 'fastify' {
  interface FastifyRequest {
    /** The 'api' bucket's answer for the signed-in caller, counted with the session check (JwtAuthGuard). */
    apiRateLimit?: RateLimitAnswer;
  }
}

/** Every bucket's window. */
const WINDOW_MS = 60_000;

/** The bucket of the route `context` runs: its @RateLimit, or 'api'. */
export function routeBucket(reflector: Reflector, context: ExecutionContext): RateLimitBucket {
  return (
    reflector.getAllAndOverride<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, [
      context.getHandler(),
      context.getClass(),
    ]) ?? 'api'
  );
}

/** The 'api' bucket of a signed-in account: its Redis key and rule. */
export function accountRateLimit(config: GatewayConfig, userId: string): [string, RateLimitRule] {
  return [
    redisKeys.rateLimit('gw-api', `user:${userId}`),
    { limit: config.rateLimit.apiPerMinute, windowMs: WINDOW_MS },
  ];
}

/**
 * Global guard, registered after JwtAuthGuard so that a signed-in caller is counted per
 * user, and before AdminGuard so that admin calls (counted per IP) are limited before each
 * costs a session check in auth. Each bucket counts in a one-minute window of server-kit's RedisRateLimiter
 * (`rl:gw-{bucket}:ip:{ip}` or `…:user:{id}`). Over the limit: 429 RATE_LIMITED with retryAfter
 * and a Retry-After header. A signed-in caller's 'api' hit comes counted already: JwtAuthGuard
 * checks the session and counts it in one Redis script (`request.apiRateLimit`), nothing counted
 * for a session that has ended.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RedisRateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const bucket = routeBucket(this.reflector, context);
    if (bucket === 'none') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // A signed-in caller's 'api' hit was counted in the round trip of its session check.
    let verdict = bucket === 'api' ? request.apiRateLimit : undefined;
    if (!verdict) {
      try {
        verdict = await this.limiter.hit(...this.keyAndRule(bucket, request));
      } catch {
        throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
      }
    }
    if (!verdict.allowed) {
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: verdict.retryAfter });
    }
    return true;
  }

  private keyAndRule(
    bucket: Exclude<RateLimitBucket, 'none'>,
    request: FastifyRequest,
  ): [string, RateLimitRule] {
    const perIp = (limit: number): [string, RateLimitRule] => [
      redisKeys.rateLimit(`gw-${bucket}`, `ip:${request.ip}`),
      { limit, windowMs: WINDOW_MS },
    ];
    switch (bucket) {
      case 'auth':
        return perIp(this.config.rateLimit.authPerMinute);
      case 'blob':
        return perIp(this.config.rateLimit.blobPerMinute);
      default: {
        // Signed-in callers count per account, others per IP. Admin routes count per IP: this
        // guard runs before AdminGuard asks auth who the admin is (request.auth is never set there).
        const account = request.auth?.userId;
        return account ? accountRateLimit(this.config, account) : perIp(this.config.rateLimit.apiPerMinute);
      }
    }
  }
}
