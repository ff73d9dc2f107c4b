import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { JobQueues } from '@vault/server-kit';
import type Redis from 'ioredis';
import { QUEUE_CONNECTION, SCAN_REDIS } from './connections';

/**
 * On SIGTERM/SIGINT (enableShutdownHooks): stop taking jobs and let the running scans finish
 * (their verdicts are published), then close the result queue and the Redis connections.
 */
@Injectable()
export class WorkerLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('WorkerLifecycle');

  constructor(
    private readonly jobs: JobQueues,
    @Inject(SCAN_REDIS) private readonly redis: Redis,
    @Inject(QUEUE_CONNECTION) private readonly queueRedis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // The worker first (running scans finish and publish), then the result queue.
    await this.jobs.close();
    await Promise.allSettled(
      [this.redis, this.queueRedis].map((client) => client.quit().catch(() => client.disconnect())),
    );
    this.logger.log('Worker stopped; connections closed');
  }
}
