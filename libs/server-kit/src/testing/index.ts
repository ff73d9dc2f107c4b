export * from './test-infra';
export * from './free-port';
