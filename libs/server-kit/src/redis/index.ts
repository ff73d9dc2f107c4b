export * from './redis';
export * from './rate-limiter';
