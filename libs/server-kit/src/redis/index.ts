export * from './redis';
export * from './account-purge-worker';
