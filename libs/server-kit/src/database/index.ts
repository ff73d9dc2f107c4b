export * from './data-source';
export * from './connections';
export * from './migrate-cli';
