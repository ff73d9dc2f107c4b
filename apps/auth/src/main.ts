import 'reflect-metadata';
import { DEFAULT_SECRET_HASH, describeRpcListener, PinoNestLogger, runService } from '@vault/server-kit';
import { startAuthService } from './bootstrap';
import { describeConfig, loadAuthConfig } from './config/auth.config';
import { HealthService } from './services/health.service';

void runService({
  service: 'auth',
  title: 'Auth service',
  load: () => loadAuthConfig(),
  describe: describeConfig,
  async start(config, log) {
    if (config.secretHash.memoryKiB < DEFAULT_SECRET_HASH.memoryKiB) {
      log.warn(`SECRET_HASH_MEMORY_KIB is below ${DEFAULT_SECRET_HASH.memoryKiB}: only for tests`);
    }
    const app = await startAuthService(config, new PinoNestLogger(log));
    const health = app.get(HealthService);
    return {
      ready: () => health.check(),
      announce: [`Auth service listening on ${describeRpcListener(config.rpc)}`],
    };
  },
});
