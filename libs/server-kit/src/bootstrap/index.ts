export * from './run-service';
export * from './rpc-service';
export * from './account-purge.consumer';
