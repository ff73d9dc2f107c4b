import 'reflect-metadata';
import { runRpcService } from '@vault/server-kit';
import { startAdminService } from './bootstrap';
import { describeConfig, loadAdminConfig } from './config/admin.config';

void runRpcService({
  service: 'admin',
  title: 'Admin service',
  load: () => loadAdminConfig(),
  describe: describeConfig,
  start: (config, logger) => startAdminService(config, logger),
});
