import 'reflect-metadata';
import { DEFAULT_SECRET_HASH, runRpcService } from '@vault/server-kit';
import { startAuthService } from './bootstrap';
import { describeConfig, loadAuthConfig } from './config/auth.config';

void runRpcService({
  service: 'auth',
  title: 'Auth service',
  load: () => loadAuthConfig(),
  describe: describeConfig,
  start(config, logger, log) {
    if (config.secretHash.memoryKiB < DEFAULT_SECRET_HASH.memoryKiB) {
      log.warn(`SECRET_HASH_MEMORY_KIB is below ${DEFAULT_SECRET_HASH.memoryKiB}: only for tests`);
    }
    return startAuthService(config, logger);
  },
});
