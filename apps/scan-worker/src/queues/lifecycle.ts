import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { QUEUE_CONNECTION, SCAN_REDIS } from './connections';
import { QueueWorker } from './queue-worker';
import { ScanResultPublisher } from './scan-result.publisher';

/**
 * On SIGTERM/SIGINT (enableShutdownHooks): stop taking jobs and let the running scans finish
 * (their verdicts are published), then close the result queue and the Redis connections.
 */
@Injectable()
export class WorkerLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('WorkerLifecycle');

  constructor(
    private readonly worker: QueueWorker,
    private readonly results: ScanResultPublisher,
    @Inject(SCAN_REDIS) private readonly redis: Redis,
    @Inject(QUEUE_CONNECTION) private readonly queueRedis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.worker.close().catch((e: unknown) => this.logger.warn(`Closing the worker: ${String(e)}`));
    await this.results
      .close()
      .catch((e: unknown) => this.logger.warn(`Closing the result queue: ${String(e)}`));
    await Promise.allSettled(
      [this.redis, this.queueRedis].map((client) => client.quit().catch(() => client.disconnect())),
    );
    this.logger.log('Worker stopped; connections closed');
  }
}
