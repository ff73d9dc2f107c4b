import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, VaultError } from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from './rate-limit.decorator';
import { RateLimiter } from './rate-limiter';

/**
 * Global guard, registered after JwtAuthGuard so that a signed-in caller is counted per
 * user. Over the limit: 429 RATE_LIMITED with retryAfter and a Retry-After header.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
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
      verdict = await this.limiter.hit(`gw-${bucket}`, key, limit);
    } catch {
      throw new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    }
    if (!verdict.allowed) {
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: verdict.retryAfterSeconds });
    }
    return true;
  }

  private keyAndLimit(bucket: Exclude<RateLimitBucket, 'none'>, request: FastifyRequest): [string, number] {
    switch (bucket) {
      case 'auth':
        return [`ip:${request.ip}`, this.config.rateLimit.authPerMinute];
      case 'blob':
        return [`ip:${request.ip}`, this.config.rateLimit.blobPerMinute];
      default:
        return [
          request.auth ? `user:${request.auth.userId}` : `ip:${request.ip}`,
          this.config.rateLimit.apiPerMinute,
        ];
    }
  }
}
