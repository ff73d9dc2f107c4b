import type { HealthReply, SystemHealth } from '@vault/contracts';
import { withTimeout } from '@vault/server-kit';

/** How long any one dependency may take to answer the system health (a slow one is down). */
export const PROBE_TIMEOUT_MS = 2000;

/** Runs `probe` and measures it; undefined result and the message when it fails or is too slow. */
export async function timed<T>(
  probe: () => Promise<T>,
): Promise<{ value?: T; latencyMs: number; error?: string }> {
  const started = performance.now();
  try {
    const value = await withTimeout(probe(), PROBE_TIMEOUT_MS);
    return { value, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { latencyMs: Math.round(performance.now() - started), error: errorText(error) };
  }
}

export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

export type ServiceState = SystemHealth['services'][number];

/** A service's own health reply as the console shows it: up only when it and its checks are ok. */
export function serviceState(name: string, reply: HealthReply | undefined, error?: string): ServiceState {
  if (!reply) {
    return {
      name,
      status: 'down',
      version: null,
      uptimeSeconds: null,
      memory: null,
      error: error ?? 'no answer',
    };
  }
  const down = Object.entries(reply.checks)
    .filter(([, state]) => state !== 'ok')
    .map(([check]) => check);
  return {
    name,
    status: reply.status === 'ok' ? 'up' : 'down',
    // Older services answer without version and memory (HealthReply's optional fields).
    version: reply.version ?? null,
    uptimeSeconds: reply.uptimeSeconds,
    memory: reply.memory ?? null,
    ...(down.length > 0 ? { error: `checks down: ${down.join(', ')}` } : {}),
  };
}
