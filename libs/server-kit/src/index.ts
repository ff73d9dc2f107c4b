export * from './config';
export * from './logging';
export * from './errors';
export * from './rpc';
export * from './redis';
export * from './database';
export * from './health';
export * from './security';
