/** Injection token of the gateway's pino logger (the same instance Fastify logs with). */
export const LOGGER = Symbol('LOGGER');
