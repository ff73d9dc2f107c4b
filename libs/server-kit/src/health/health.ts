import type { HealthReply } from '@vault/contracts';

export type HealthProbe = () => Promise<unknown>;

/** Runs named probes with a time limit each; any failure marks the service degraded. */
export async function checkHealth(
  service: string,
  probes: Record<string, HealthProbe>,
  timeoutMs = 2000,
): Promise<HealthReply> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          probe(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
          }),
        ]);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'down'] as const;
      } finally {
        if (timer) clearTimeout(timer);
      }
    }),
  );
  const checks = Object.fromEntries(entries) as Record<string, 'ok' | 'down'>;
  const status = entries.every(([, s]) => s === 'ok') ? 'ok' : 'degraded';
  return { service, status, uptimeSeconds: Math.round(process.uptime()), checks };
}
