import { NestFactory } from '@nestjs/core';
import type { INestMicroservice, LoggerService } from '@nestjs/common';
import { RpcDomainExceptionFilter, rpcServerOptions } from '@vault/server-kit';
import { AppModule } from './app.module';
import type { NotesConfig } from './config/notes.config';

/** Creates and starts the notes microservice (used by main.ts and by the medium tests). */
export async function startNotesService(
  config: NotesConfig,
  logger: LoggerService | false,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(AppModule.forRoot(config), {
    ...rpcServerOptions('notes', config.rpc),
    logger,
    // Boot errors are reported by the caller with a clear message instead of process.abort().
    abortOnError: false,
  });
  app.useGlobalFilters(new RpcDomainExceptionFilter());
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen();
  return app;
}
