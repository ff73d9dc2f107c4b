export * from './rpc-options';
export * from './rpc-call';
export * from './rpc-request';
export * from './rpc-clients';
export * from './ascii-json-socket';
