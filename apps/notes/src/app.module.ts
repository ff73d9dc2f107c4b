import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NotesConfig } from './config/notes.config';
import { HealthHandler } from './handlers/health.handler';
import { NotesHandler } from './handlers/notes.handler';
import {
  connectDatabase,
  connectRedis,
  ConnectionsLifecycle,
  NOTES_CONFIG,
  NOTES_REDIS,
} from './repositories/connections';
import { HealthRepository } from './repositories/health.repository';
import { NotesRepository } from './repositories/notes.repository';
import { AccountPurgeConsumer } from './handlers/account-purge.consumer';
import { NotesPurgeRepository } from './repositories/notes-purge.repository';
import { CallerService } from './services/caller.service';
import { HealthService } from './services/health.service';
import { NotesService } from './services/notes.service';

/**
 * The notes service. Built from a validated config (nothing here reads the environment);
 * Postgres and Redis are connected while the module initialises, so a broken dependency
 * fails the boot instead of the first request.
 */
@Module({})
export class AppModule {
  static forRoot(config: NotesConfig): DynamicModule {
    return {
      module: AppModule,
      controllers: [NotesHandler, HealthHandler],
      providers: [
        { provide: NOTES_CONFIG, useValue: config },
        { provide: DataSource, useFactory: () => connectDatabase(config.database) },
        { provide: NOTES_REDIS, useFactory: () => connectRedis(config.redis) },
        ConnectionsLifecycle,
        NotesRepository,
        NotesPurgeRepository,
        AccountPurgeConsumer,
        HealthRepository,
        CallerService,
        NotesService,
        HealthService,
      ],
    };
  }
}
