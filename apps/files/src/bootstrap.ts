import type { Server } from 'node:http';
import type { INestMicroservice, LoggerService } from '@nestjs/common';
import { startRpcService } from '@vault/server-kit';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import type { FilesConfig } from './config/files.config';
import { createBlobServer } from './http/blob-server';
import { QueuesRepository } from './repositories/queues.repository';
import { BlobService } from './services/blob.service';
import { FilesService } from './services/files.service';

export interface RunningFilesService {
  app: INestMicroservice;
  /** The blob route's HTTP listener. */
  http: Server;
  close(): Promise<void>;
}

/**
 * Creates and starts the files service (used by main.ts and by the medium tests): the RPC
 * microservice, the blob route's HTTP listener, the consumer of scan verdicts and the
 * scheduled cleanup of abandoned uploads.
 */
export async function startFilesService(
  config: FilesConfig,
  logger: LoggerService | false,
  log: Pick<Logger, 'warn' | 'error'>,
): Promise<RunningFilesService> {
  const app = await startRpcService(AppModule.forRoot(config), 'files', config.rpc, logger);

  const files = app.get(FilesService);
  const queues = app.get(QueuesRepository);
  await queues.consumeScanResults((result) => files.recordScan(result));
  await queues.scheduleCleanup(config.cleanup.intervalSeconds * 1000, () => files.cleanupAbandoned());

  const http = createBlobServer(app.get(BlobService), log);
  // Uploads of 100 MB on slow links: no request timeout; idle sockets still close.
  http.requestTimeout = 0;
  http.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.http.port, config.http.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const close = async () => {
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await app.close();
  };
  return { app, http, close };
}
