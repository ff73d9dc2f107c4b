export * from './job-registry';
export * from './queues';
export * from './job-queue';
export * from './job-worker';
export * from './job-queues';
export * from './account-purge.worker';
