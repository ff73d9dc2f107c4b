import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { JOB_QUEUES, JobQueues, JobWorker, SCAN_FILE_JOB } from '@vault/server-kit';
import type Redis from 'ioredis';
import { SCAN_WORKER_CONFIG, type ScanWorkerConfig } from './config/scan-worker.config';
import { HealthService } from './health/health.service';
import { ScanFileJobHandler } from './jobs/scan-file.job';
import { connectQueueRedis, connectRedis, QUEUE_CONNECTION, SCAN_REDIS } from './queues/connections';
import { WorkerLifecycle } from './queues/lifecycle';
import { ScanLocksRepository } from './queues/scan-locks.repository';
import { ScanResultPublisher } from './queues/scan-result.publisher';
import { FileScanner, OBJECT_READERS } from './scanners/file-scanner.service';
import { createObjectReaders, type ObjectReaders } from './scanners/object-reader';

export interface ScanWorkerOverrides {
  /** Object readers by storage type instead of the configured ones (tests). */
  readers?: ObjectReaders;
}

/**
 * The scan worker: a Nest application context (no HTTP) around one BullMQ worker on
 * SCAN_QUEUE (server-kit JOB_QUEUES.scan). Built from a validated config (nothing here reads the environment); Redis is
 * connected while the module initialises and the job registry is checked, so a broken
 * dependency or a job without handler fails the boot instead of the first job.
 */
@Module({})
export class AppModule {
  static forRoot(config: ScanWorkerConfig, overrides: ScanWorkerOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      providers: [
        { provide: SCAN_WORKER_CONFIG, useValue: config },
        { provide: SCAN_REDIS, useFactory: () => connectRedis(config.redis) },
        { provide: QUEUE_CONNECTION, useFactory: () => connectQueueRedis(config.redis.url) },
        {
          provide: OBJECT_READERS,
          useFactory: () => overrides.readers ?? createObjectReaders(config.storage),
        },
        {
          provide: JobQueues,
          useFactory: (connection: Redis) => new JobQueues({ connection, prefix: config.redis.queuePrefix }),
          inject: [QUEUE_CONNECTION],
        },
        {
          // JOB_QUEUES.scan's registry is checked here: a job without a handler fails the boot.
          provide: JobWorker,
          useFactory: (jobs: JobQueues, scanFile: ScanFileJobHandler) =>
            jobs.worker(
              JOB_QUEUES.scan,
              { [SCAN_FILE_JOB]: scanFile },
              { concurrency: config.scan.concurrency, logger: new Logger('QueueWorker') },
            ),
          inject: [JobQueues, ScanFileJobHandler],
        },
        FileScanner,
        ScanLocksRepository,
        ScanResultPublisher,
        ScanFileJobHandler,
        HealthService,
        WorkerLifecycle,
      ],
    };
  }
}
