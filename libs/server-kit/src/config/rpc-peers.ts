import { z } from 'zod';
import { DEFAULT_RPC_PORTS, envInt } from './common.schema';

const host = () => z.string().min(1).default('127.0.0.1');

/**
 * The addresses of the RPC services a caller talks to over TCP (the gateway, the admin service):
 * `<SERVICE>_RPC_HOST` and `<SERVICE>_RPC_PORT`, the same names each service listens with.
 */
export const rpcPeersEnvShape = {
  AUTH_RPC_HOST: host(),
  AUTH_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.auth),
  NOTES_RPC_HOST: host(),
  NOTES_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.notes),
  FILES_RPC_HOST: host(),
  FILES_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.files),
  ADMIN_RPC_HOST: host(),
  ADMIN_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.admin),
};
type PeersEnv = z.output<z.ZodObject<typeof rpcPeersEnvShape>>;
export type RpcPeer = keyof typeof DEFAULT_RPC_PORTS;

/** The peers' addresses from the validated variables. */
export function rpcPeersFromEnv<S extends RpcPeer>(
  env: Pick<PeersEnv, `${Uppercase<S>}_RPC_HOST` | `${Uppercase<S>}_RPC_PORT`>,
  services: readonly S[],
): Record<S, { host: string; port: number }> {
  const values = env as Record<string, string | number>;
  return Object.fromEntries(
    services.map((service) => {
      const prefix = service.toUpperCase();
      return [
        service,
        { host: String(values[`${prefix}_RPC_HOST`]), port: Number(values[`${prefix}_RPC_PORT`]) },
      ];
    }),
  ) as Record<S, { host: string; port: number }>;
}
