import 'reflect-metadata';
import {
  createLogger,
  PinoNestLogger,
  startHealthServer,
  describeEndpoint,
  InfrastructureUnavailableError,
} from '@vault/server-kit';
import { startNotesService } from './bootstrap';
import { describeConfig, loadNotesConfig, type NotesConfig } from './config/notes.config';
import { HealthService } from './services/health.service';

async function main(): Promise<void> {
  let config: NotesConfig;
  try {
    config = loadNotesConfig();
  } catch (error) {
    console.error(`[notes] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  const log = createLogger({ service: 'notes', level: config.log.level, pretty: config.log.pretty });
  log.info({ config: describeConfig(config) }, 'Starting notes service');

  try {
    const app = await startNotesService(config, new PinoNestLogger(log));
    if (config.health.port !== undefined) {
      const health = app.get(HealthService);
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
    log.info(`Notes service listening on ${where}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = error instanceof InfrastructureUnavailableError ? ' (is it running? check the URL)' : '';
    log.fatal(`Notes service failed to start: ${message}${hint}`);
    log.flush();
    process.exitCode = 1;
    // Give pino a moment to flush, then leave even if a socket keeps the loop alive.
    setTimeout(() => process.exit(1), 100).unref();
  }
}

void main();
