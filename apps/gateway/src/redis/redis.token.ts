/** Injection token of the gateway's ioredis client (key prefix = REDIS_PREFIX, shared with auth). */
export const REDIS = Symbol('REDIS');
