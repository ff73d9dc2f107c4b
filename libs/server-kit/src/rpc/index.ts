export * from './rpc-options';
export * from './rpc-call';
