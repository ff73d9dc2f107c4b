export * from './health';
export * from './health-server';
