import 'reflect-metadata';
import { describeRpcListener, PinoNestLogger, runService } from '@vault/server-kit';
import { startNotesService } from './bootstrap';
import { describeConfig, loadNotesConfig } from './config/notes.config';
import { HealthService } from './services/health.service';

void runService({
  service: 'notes',
  title: 'Notes service',
  load: () => loadNotesConfig(),
  describe: describeConfig,
  async start(config, log) {
    const app = await startNotesService(config, new PinoNestLogger(log));
    const health = app.get(HealthService);
    return {
      ready: () => health.check(),
      announce: [`Notes service listening on ${describeRpcListener(config.rpc)}`],
    };
  },
});
