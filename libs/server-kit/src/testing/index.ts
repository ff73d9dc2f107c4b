export * from './test-infra';
export * from './free-port';
export * from './rpc-test-app';
export * from './config-error';
export * from './admin-context';
export * from './metrics-text';
export * from './query-plan';
