import { Module, type DynamicModule } from '@nestjs/common';
import { ACCOUNT_PURGE_QUEUES, NOTES_PATTERNS } from '@vault/contracts';
import { accountPurgeConsumer, healthHandler, rpcServiceProviders } from '@vault/server-kit';
import type { NotesConfig } from './config/notes.config';
import { NotesAdminHandler } from './handlers/notes-admin.handler';
import { NotesHandler } from './handlers/notes.handler';
import { NOTES_CONFIG, NOTES_REDIS, notesDatabaseConfig } from './repositories/connections';
import { NoteCountsRepository } from './repositories/note-counts.repository';
import { NotesRepository } from './repositories/notes.repository';
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
      controllers: [NotesHandler, NotesAdminHandler, healthHandler(NOTES_PATTERNS.health)],
      providers: [
        ...rpcServiceProviders({
          service: 'notes',
          config,
          configToken: NOTES_CONFIG,
          redisToken: NOTES_REDIS,
          database: notesDatabaseConfig(config.database),
        }),
        NotesRepository,
        NoteCountsRepository,
        // Once an account is deleted, every note of it goes.
        accountPurgeConsumer({
          queue: ACCOUNT_PURGE_QUEUES.notes,
          noun: 'note',
          configToken: NOTES_CONFIG,
          purger: NotesRepository,
          purge: (notes, userId) => notes.deleteAllOwned(userId),
        }),
        NotesService,
      ],
    };
  }
}
