export * from './secrets';
export * from './jwt-key-id';
