import 'reflect-metadata';
import {
  createLogger,
  describeEndpoint,
  InfrastructureUnavailableError,
  PinoNestLogger,
  startHealthServer,
} from '@vault/server-kit';
import { SCAN_QUEUE } from '@vault/contracts';
import { startScanWorker } from './bootstrap';
import { describeConfig, loadScanWorkerConfig, type ScanWorkerConfig } from './config/scan-worker.config';
import { HealthService } from './health/health.service';
import { FileScanner } from './scanners/file-scanner.service';

async function main(): Promise<void> {
  let config: ScanWorkerConfig;
  try {
    config = loadScanWorkerConfig();
  } catch (error) {
    console.error(`[scan-worker] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  const log = createLogger({ service: 'scan-worker', level: config.log.level, pretty: config.log.pretty });
  log.info({ config: describeConfig(config) }, 'Starting scan worker');

  try {
    const app = await startScanWorker(config, new PinoNestLogger(log));
    if (config.health.port !== undefined) {
      const health = app.get(HealthService);
      await startHealthServer({
        host: config.health.host,
        port: config.health.port,
        ready: () => health.check(),
      });
      log.info(`Health probes on http://${config.health.host}:${config.health.port}/health/{live,ready}`);
    }
    const clamd = `${config.clamd.host}:${config.clamd.port}`;
    try {
      await app.get(FileScanner).ping();
      log.info(`ClamAV answers on ${clamd}`);
    } catch (error) {
      // Not fatal: jobs wait (retries with backoff) until clamd answers.
      log.warn(`ClamAV does not answer on ${clamd} yet (${error instanceof Error ? error.message : error})`);
    }
    log.info(
      `Scan worker consuming ${config.redis.queuePrefix}:${SCAN_QUEUE} on Redis ${describeEndpoint(config.redis.url)}`,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = error instanceof InfrastructureUnavailableError ? ' (is it running? check the URL)' : '';
    log.fatal(`Scan worker failed to start: ${message}${hint}`);
    log.flush();
    process.exitCode = 1;
    // Give pino a moment to flush, then leave even if a socket keeps the loop alive.
    setTimeout(() => process.exit(1), 100).unref();
  }
}

void main();
