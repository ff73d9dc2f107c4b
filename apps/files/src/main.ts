import 'reflect-metadata';
import { describeRpcListener, PinoNestLogger, runService } from '@vault/server-kit';
import { describeStorage } from '@vault/storage';
import { startFilesService } from './bootstrap';
import { describeConfig, loadFilesConfig } from './config/files.config';
import { HealthService } from './services/health.service';

void runService({
  service: 'files',
  title: 'Files service',
  load: () => loadFilesConfig(),
  describe: describeConfig,
  async start(config, log) {
    const service = await startFilesService(config, new PinoNestLogger(log), log);
    const health = service.app.get(HealthService);
    return {
      ready: () => health.check(),
      announce: [
        `Files service listening on ${describeRpcListener(config.rpc)}; blob route on http://${config.http.host}:${config.http.port}`,
        ...describeStorage(config.storage).map((line) => `Storage ${line}`),
      ],
    };
  },
});
