import { SetMetadata } from '@nestjs/common';

/**
 * Which limit a route counts against. `auth` (RATE_LIMIT_AUTH_PER_MINUTE, per IP) for the
 * credential endpoints (and the file routes that re-check the password); `blob`
 * (RATE_LIMIT_BLOB_PER_MINUTE, per IP) for the public signed blob route; every other /api route
 * counts against `api` (RATE_LIMIT_API_PER_MINUTE, per user when signed in, else per IP);
 * `none` for probes.
 */
export const RATE_LIMIT_BUCKET = 'vault:rate-limit-bucket';
export type RateLimitBucket = 'auth' | 'api' | 'blob' | 'none';

export const RateLimit = (bucket: RateLimitBucket): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_LIMIT_BUCKET, bucket);
