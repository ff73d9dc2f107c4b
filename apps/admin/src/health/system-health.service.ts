import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RpcContext, SystemHealth } from '@vault/contracts';
import {
  createQueueConnection,
  JOB_QUEUES,
  JobQueues,
  memoryUsage,
  queuePrefix,
  ServiceHealth,
  type QueueDefinition,
} from '@vault/server-kit';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import type { AdminConfig } from '../config/admin.config';
import { ADMIN_CONFIG, ADMIN_REDIS } from '../repositories/connections';
import { ServiceRpc } from '../rpc/service-rpc';
import { clamdHealth } from './clamd-version';
import { errorText, PROBE_TIMEOUT_MS, serviceState, timed, type ServiceState } from './probes';

const RPC_SERVICES = ['auth', 'notes', 'files'] as const;
const COUNTED = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * The console's system health: every dependency asked at once, each within PROBE_TIMEOUT_MS. A
 * dependency that is down never fails the call: it is reported down and the status is `degraded`.
 */
@Injectable()
export class SystemHealthService implements OnApplicationShutdown {
  private readonly queues: JobQueues;

  constructor(
    @Inject(ADMIN_CONFIG) private readonly config: AdminConfig,
    @Inject(ADMIN_REDIS) private readonly redis: Redis,
    private readonly dataSource: DataSource,
    private readonly rpc: ServiceRpc,
    private readonly ownHealth: ServiceHealth,
  ) {
    // Reads only (counts, workers): commands fail instead of waiting for Redis forever.
    this.queues = new JobQueues(
      {
        connection: createQueueConnection(config.redis.url, { maxRetriesPerRequest: 1, lazyConnect: true }),
        prefix: queuePrefix(config.redis.prefix),
      },
      true,
    );
  }

  async check(ctx: RpcContext): Promise<SystemHealth> {
    const [database, redis, services, queues, scanWorker, storage, clamd] = await Promise.all([
      this.database(),
      this.redisState(),
      this.services(ctx),
      this.queueDepths(),
      this.scanWorker(),
      this.storage(ctx),
      this.config.clamd ? clamdHealth(this.config.clamd, PROBE_TIMEOUT_MS) : notConfigured(),
    ]);
    const all = [...services, scanWorker];
    const down =
      database.status === 'down' ||
      redis.status === 'down' ||
      queues === undefined ||
      all.some((s) => s.status === 'down') ||
      storage.some((s) => s.status === 'down') ||
      clamd.status === 'down';
    const depths = queues ?? [];
    return {
      status: down ? 'degraded' : 'ok',
      database,
      redis,
      queue: Object.fromEntries(
        COUNTED.map((c) => [c, depths.reduce((sum, q) => sum + q[c], 0)]),
      ) as SystemHealth['queue'],
      queues: depths,
      services: all,
      storage,
      clamd,
      uptime: Math.round(process.uptime()),
      nodeVersion: process.version,
      environment: this.config.nodeEnv,
      timestamp: new Date().toISOString(),
      memory: memoryUsage(),
    };
  }

  private async database(): Promise<SystemHealth['database']> {
    const probe = await timed(() =>
      this.dataSource.query<{ version: string }[]>('SELECT version() AS version'),
    );
    if (probe.error || !probe.value) return { status: 'down', latencyMs: null, version: null };
    // "PostgreSQL 16.4 (Debian ...) on x86_64-pc-linux-gnu, compiled by ...": the product and release.
    const version = /^\S+ \S+/.exec(probe.value[0]?.version ?? '')?.[0] ?? null;
    return { status: 'up', latencyMs: probe.latencyMs, version };
  }

  private async redisState(): Promise<SystemHealth['redis']> {
    const ping = await timed(() => this.redis.ping());
    if (ping.error) return { status: 'down', latencyMs: null, version: null };
    const info = await timed(() => this.redis.info('server'));
    const version = /^redis_version:(\S+)/m.exec(info.value ?? '')?.[1] ?? null;
    return { status: 'up', latencyMs: ping.latencyMs, version };
  }

  private async services(ctx: RpcContext): Promise<ServiceState[]> {
    const remote = RPC_SERVICES.map(async (name) => {
      try {
        return serviceState(name, await this.rpc.call(`${name}.health`, ctx, undefined, PROBE_TIMEOUT_MS));
      } catch (error) {
        return serviceState(name, undefined, errorText(error));
      }
    });
    const own = this.ownHealth.check().then((reply) => serviceState('admin', reply));
    return Promise.all([...remote, own]);
  }

  /** Every queue of JOB_QUEUES; undefined when Redis does not answer. */
  private async queueDepths(): Promise<SystemHealth['queues'] | undefined> {
    const probe = await timed(() =>
      Promise.all(
        Object.values(JOB_QUEUES).map(async (definition: QueueDefinition) => {
          const counts = await this.queues.queue(definition).queue.getJobCounts(...COUNTED);
          return { name: definition.name, ...Object.fromEntries(COUNTED.map((c) => [c, counts[c] ?? 0])) };
        }),
      ),
    );
    return probe.value as SystemHealth['queues'] | undefined;
  }

  /** The scan worker has no RPC: it is up while BullMQ sees a worker on the scan queue. */
  private async scanWorker(): Promise<ServiceState> {
    const probe = await timed(() => this.queues.queue(JOB_QUEUES.scan).queue.getWorkers());
    const up = (probe.value?.length ?? 0) > 0;
    return {
      name: 'scan-worker',
      status: up ? 'up' : 'down',
      version: null,
      uptimeSeconds: null,
      memory: null,
      ...(up ? {} : { error: probe.error ?? 'no worker on the scan queue' }),
    };
  }

  private async storage(ctx: RpcContext): Promise<SystemHealth['storage']> {
    try {
      const reply = await this.rpc.call('files.admin.storage-health', ctx, undefined, PROBE_TIMEOUT_MS);
      return reply.storage;
    } catch (error) {
      return [
        { driver: 'unknown', default: true, status: 'down', error: `files service: ${errorText(error)}` },
      ];
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
  }
}

function notConfigured(): Promise<SystemHealth['clamd']> {
  return Promise.resolve({
    status: 'not-configured',
    version: null,
    signatureVersion: null,
    signatureDate: null,
    signatureAgeHours: null,
  });
}
