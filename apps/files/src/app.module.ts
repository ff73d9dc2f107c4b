import { Module, type DynamicModule } from '@nestjs/common';
import { ACCOUNT_PURGE_QUEUES, FILES_PATTERNS } from '@vault/contracts';
import { accountPurgeConsumer, healthHandler, rpcServiceProviders } from '@vault/server-kit';
import type { FilesConfig } from './config/files.config';
import { FilesAdminHandler } from './handlers/files-admin.handler';
import { FilesHandler } from './handlers/files.handler';
import { FILES_CONFIG, FILES_REDIS, filesDatabaseConfig } from './repositories/connections';
import { FilesRepository } from './repositories/files.repository';
import { AccountPurgeService } from './services/account-purge.service';
import { QueuesRepository } from './repositories/queues.repository';
import { RescanLockRepository } from './repositories/rescan-lock.repository';
import { StorageRepository } from './repositories/storage.repository';
import { BlobService } from './services/blob.service';
import { FilesAdminService } from './services/files-admin.service';
import { FilesService } from './services/files.service';
import { ScanRequeueService } from './services/scan-requeue.service';

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
      controllers: [FilesHandler, FilesAdminHandler, healthHandler(FILES_PATTERNS.health)],
      providers: [
        ...rpcServiceProviders({
          service: 'files',
          config,
          configToken: FILES_CONFIG,
          redisToken: FILES_REDIS,
          database: filesDatabaseConfig(config.database),
          probes: {
            inject: [QueuesRepository, StorageRepository],
            make: (queues: QueuesRepository, storage: StorageRepository) => ({
              queue: () => queues.ping(),
              storage: () => storage.ping(),
            }),
          },
        }),
        FilesRepository,
        AccountPurgeService,
        // Once an account is deleted, every file of it goes, stored objects and pending uploads included.
        accountPurgeConsumer({
          queue: ACCOUNT_PURGE_QUEUES.files,
          noun: 'file',
          configToken: FILES_CONFIG,
          purger: AccountPurgeService,
          purge: (files, userId) => files.purgeOwner(userId),
        }),
        QueuesRepository,
        RescanLockRepository,
        StorageRepository,
        FilesService,
        FilesAdminService,
        BlobService,
        ScanRequeueService,
      ],
    };
  }
}
