import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext, LoggerService } from '@nestjs/common';
import { JobWorker } from '@vault/server-kit';
import { AppModule, type ScanWorkerOverrides } from './app.module';
import type { ScanWorkerConfig } from './config/scan-worker.config';

/** Creates the worker's context and starts consuming SCAN_QUEUE (used by main.ts and the medium tests). */
export async function startScanWorker(
  config: ScanWorkerConfig,
  logger: LoggerService | false,
  overrides: ScanWorkerOverrides = {},
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, overrides), {
    logger,
    // Boot errors are reported by the caller with a clear message instead of process.abort().
    abortOnError: false,
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  try {
    await app.get(JobWorker).start();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
