import { Module, type DynamicModule } from '@nestjs/common';
import { SCAN_QUEUE } from '@vault/contracts';
import { SCAN_WORKER_CONFIG, type ScanWorkerConfig } from './config/scan-worker.config';
import { HealthService } from './health/health.service';
import { JobRegistry } from './jobs/job-registry';
import { SCAN_FILE_JOB, SCAN_QUEUE_JOBS, ScanFileJobHandler } from './jobs/scan-file.job';
import { connectQueueRedis, connectRedis, QUEUE_CONNECTION, SCAN_REDIS } from './queues/connections';
import { WorkerLifecycle } from './queues/lifecycle';
import { QueueWorker, SCAN_JOB_REGISTRY } from './queues/queue-worker';
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
 * SCAN_QUEUE. Built from a validated config (nothing here reads the environment); Redis is
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
          provide: SCAN_JOB_REGISTRY,
          useFactory: (scanFile: ScanFileJobHandler) =>
            JobRegistry.create(SCAN_QUEUE, SCAN_QUEUE_JOBS, { [SCAN_FILE_JOB]: scanFile }),
          inject: [ScanFileJobHandler],
        },
        FileScanner,
        ScanLocksRepository,
        ScanResultPublisher,
        ScanFileJobHandler,
        QueueWorker,
        HealthService,
        WorkerLifecycle,
      ],
    };
  }
}
