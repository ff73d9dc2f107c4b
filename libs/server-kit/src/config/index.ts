export * from './load-config';
export * from './common.schema';
export * from './plain-rpc-service';
export * from './rpc-peers';
