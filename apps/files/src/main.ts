import 'reflect-metadata';
import {
  createLogger,
  PinoNestLogger,
  startHealthServer,
  describeEndpoint,
  InfrastructureUnavailableError,
} from '@vault/server-kit';
import { describeStorage } from '@vault/storage';
import { startFilesService } from './bootstrap';
import { describeConfig, loadFilesConfig, type FilesConfig } from './config/files.config';
import { HealthService } from './services/health.service';

async function main(): Promise<void> {
  let config: FilesConfig;
  try {
    config = loadFilesConfig();
  } catch (error) {
    console.error(`[files] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  const log = createLogger({ service: 'files', level: config.log.level, pretty: config.log.pretty });
  log.info({ config: describeConfig(config) }, 'Starting files service');

  try {
    const service = await startFilesService(config, new PinoNestLogger(log), log);
    if (config.health.port !== undefined) {
      const health = service.app.get(HealthService);
      await startHealthServer({
        host: config.health.host,
        port: config.health.port,
        ready: () => health.check(),
      });
      log.info(`Health probes on http://${config.health.host}:${config.health.port}/health/{live,ready}`);
    }
    const where =
      config.rpc.transport === 'nats'
        ? `NATS ${describeEndpoint(config.rpc.natsUrl)}`
        : `TCP ${config.rpc.host}:${config.rpc.port}`;
    log.info(
      `Files service listening on ${where}; blob route on http://${config.http.host}:${config.http.port}`,
    );
    for (const line of describeStorage(config.storage)) log.info(`Storage ${line}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = error instanceof InfrastructureUnavailableError ? ' (is it running? check the URL)' : '';
    log.fatal(`Files service failed to start: ${message}${hint}`);
    log.flush();
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  }
}

void main();
