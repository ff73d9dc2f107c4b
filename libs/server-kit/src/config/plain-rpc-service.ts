import { z } from 'zod';
import {
  DEFAULT_RPC_PORTS,
  envInt,
  rpcServiceConfig,
  rpcServiceEnvSchema,
  type RpcServiceConfig,
  type RpcServiceEnv,
} from './common.schema';
import { loadConfig, maskConfig } from './load-config';

type Env = Record<string, string | undefined>;
/** The validated environment: the shared variables plus `<SERVICE>_RPC_HOST` and `<SERVICE>_RPC_PORT`. */
export type PlainRpcServiceEnv = RpcServiceEnv & Record<string, unknown>;
export type PlainRpcServiceConfig = RpcServiceConfig<PlainRpcServiceEnv>;

/**
 * The configuration of an RPC service with no settings of its own (notes, admin): the shared
 * variables (rpcServiceEnvSchema) and its listener, `<SERVICE>_RPC_HOST` (default 127.0.0.1) and
 * `<SERVICE>_RPC_PORT` (default from DEFAULT_RPC_PORTS). Only the service's config folder calls it
 * (docs/architecture.md "Code conventions"); the database URL's password is masked in logs.
 */
export function plainRpcServiceConfig(service: 'notes' | 'admin') {
  const host = `${service.toUpperCase()}_RPC_HOST`;
  const port = `${service.toUpperCase()}_RPC_PORT`;
  const envSchema = rpcServiceEnvSchema.extend({
    [host]: z.string().min(1).default('127.0.0.1'),
    [port]: envInt(1, 65535).default(DEFAULT_RPC_PORTS[service]),
  });
  return {
    envSchema,
    /** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
    load(env: Env = process.env): PlainRpcServiceConfig {
      // The two computed keys hide the shared variables' types from zod's inference; they are there.
      const valid = loadConfig(envSchema, env) as PlainRpcServiceEnv;
      return rpcServiceConfig(valid, { host: String(valid[host]), port: Number(valid[port]) });
    },
    /** The configuration as it may appear in logs: URL passwords masked. */
    describe(config: PlainRpcServiceConfig): Record<string, unknown> {
      return maskConfig({ ...config.env });
    },
  };
}
