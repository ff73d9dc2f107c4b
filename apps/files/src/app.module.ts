import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FilesConfig } from './config/files.config';
import { FilesHandler } from './handlers/files.handler';
import { HealthHandler } from './handlers/health.handler';
import {
  connectDatabase,
  connectRedis,
  ConnectionsLifecycle,
  FILES_CONFIG,
  FILES_REDIS,
} from './repositories/connections';
import { FilesRepository } from './repositories/files.repository';
import { AccountPurgeConsumer } from './handlers/account-purge.consumer';
import { AccountPurgeService } from './services/account-purge.service';
import { HealthRepository } from './repositories/health.repository';
import { QueuesRepository } from './repositories/queues.repository';
import { StorageRepository } from './repositories/storage.repository';
import { BlobService } from './services/blob.service';
import { CallerService } from './services/caller.service';
import { FilesService } from './services/files.service';
import { HealthService } from './services/health.service';

/**
 * The files service. Built from a validated config (nothing here reads the environment);
 * Postgres and Redis are connected while the module initialises, so a broken dependency fails
 * the boot instead of the first request.
 */
@Module({})
export class AppModule {
  static forRoot(config: FilesConfig): DynamicModule {
    return {
      module: AppModule,
      controllers: [FilesHandler, HealthHandler],
      providers: [
        { provide: FILES_CONFIG, useValue: config },
        { provide: DataSource, useFactory: () => connectDatabase(config.database) },
        { provide: FILES_REDIS, useFactory: () => connectRedis(config.redis) },
        ConnectionsLifecycle,
        FilesRepository,
        AccountPurgeService,
        AccountPurgeConsumer,
        HealthRepository,
        QueuesRepository,
        StorageRepository,
        CallerService,
        FilesService,
        BlobService,
        HealthService,
      ],
    };
  }
}
