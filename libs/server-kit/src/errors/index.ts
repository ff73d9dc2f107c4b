export * from './rpc-exception.filter';
export * from './http-error';
export * from './linger';
export * from './store-unavailable';
