export * from './registry';
export * from './http-metrics';
export * from './rpc-metrics';
export * from './job-metrics';
