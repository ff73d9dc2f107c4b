import 'reflect-metadata';
import { runRpcService } from '@vault/server-kit';
import { describeStorage } from '@vault/storage';
import { startFilesService } from './bootstrap';
import { describeConfig, loadFilesConfig } from './config/files.config';

void runRpcService({
  service: 'files',
  title: 'Files service',
  load: () => loadFilesConfig(),
  describe: describeConfig,
  start: async (config, logger, log) => (await startFilesService(config, logger, log)).app,
  announce: (config) => [
    `Blob route on http://${config.http.host}:${config.http.port}`,
    ...describeStorage(config.storage).map((line) => `Storage ${line}`),
  ],
});
