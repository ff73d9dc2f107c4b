import { SetMetadata } from '@nestjs/common';

/**
 * Which limit a route counts against. `auth` (RATE_LIMIT_AUTH_PER_MINUTE, per IP) for the
 * credential endpoints; every other /api route counts against `api`
 * (RATE_LIMIT_API_PER_MINUTE, per user when signed in, else per IP); `none` for probes.
 */
export const RATE_LIMIT_BUCKET = 'vault:rate-limit-bucket';
export type RateLimitBucket = 'auth' | 'api' | 'none';

export const RateLimit = (bucket: RateLimitBucket): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_LIMIT_BUCKET, bucket);
