import type { INestMicroservice, LoggerService } from '@nestjs/common';
import { startRpcService } from '@vault/server-kit';
import { AppModule } from './app.module';
import type { NotesConfig } from './config/notes.config';

/** Creates and starts the notes microservice (used by main.ts and by the medium tests). */
export function startNotesService(
  config: NotesConfig,
  logger: LoggerService | false,
): Promise<INestMicroservice> {
  return startRpcService(AppModule.forRoot(config), 'notes', config.rpc, logger);
}
