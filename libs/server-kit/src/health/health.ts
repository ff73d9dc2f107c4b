import { readFileSync } from 'node:fs';
import type { HealthReply } from '@vault/contracts';

export type HealthProbe = () => Promise<unknown>;

/** `work`'s answer, or a rejection (`no answer within <ms> ms`) once `ms` have passed. */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs named probes with a time limit each; any failure marks the service degraded. */
export async function checkHealth(
  service: string,
  probes: Record<string, HealthProbe>,
  timeoutMs = 2000,
): Promise<HealthReply> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      try {
        await withTimeout(probe(), timeoutMs);
        return [name, 'ok'] as const;
      } catch {
        return [name, 'down'] as const;
      }
    }),
  );
  const checks = Object.fromEntries(entries) as Record<string, 'ok' | 'down'>;
  const status = entries.every(([, s]) => s === 'ok') ? 'ok' : 'degraded';
  return { service, status, uptimeSeconds: Math.round(process.uptime()), checks };
}

/**
 * The version in a service's package.json (`@vault/<service>`, a workspace link in every image);
 * undefined when it cannot be read, so a health reply never fails over it. Read once at boot.
 */
export function serviceVersion(service: string): string | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(require.resolve(`@vault/${service}/package.json`), 'utf8'));
    const version = (pkg as { version?: unknown } | null)?.version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** This process's memory, as the admin console's system health shows it. */
export function memoryUsage(): NonNullable<HealthReply['memory']> {
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  return { rssBytes: rss, heapUsedBytes: heapUsed, heapTotalBytes: heapTotal };
}
