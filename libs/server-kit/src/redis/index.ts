export * from './redis';
export * from './rate-limiter';
export * from './key-invalidations';
export * from './repair-sweep';
