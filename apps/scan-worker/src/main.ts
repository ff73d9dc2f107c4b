import 'reflect-metadata';
import { describeEndpoint, PinoNestLogger, runService } from '@vault/server-kit';
import { SCAN_QUEUE } from '@vault/contracts';
import { startScanWorker } from './bootstrap';
import { describeConfig, loadScanWorkerConfig } from './config/scan-worker.config';
import { HealthService } from './health/health.service';
import { FileScanner } from './scanners/file-scanner.service';

void runService({
  service: 'scan-worker',
  title: 'Scan worker',
  load: () => loadScanWorkerConfig(),
  describe: describeConfig,
  async start(config, log) {
    const app = await startScanWorker(config, new PinoNestLogger(log));
    const health = app.get(HealthService);
    const clamd = `${config.clamd.host}:${config.clamd.port}`;
    try {
      await app.get(FileScanner).ping();
      log.info(`ClamAV answers on ${clamd}`);
    } catch (error) {
      // Not fatal: jobs wait (retries with backoff) until clamd answers.
      log.warn(`ClamAV does not answer on ${clamd} yet (${error instanceof Error ? error.message : error})`);
    }
    return {
      ready: () => health.check(),
      announce: [
        `Scan worker consuming ${config.redis.queuePrefix}:${SCAN_QUEUE} on Redis ${describeEndpoint(config.redis.url)}`,
      ],
    };
  },
});
