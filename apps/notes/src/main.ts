import 'reflect-metadata';
import { runRpcService } from '@vault/server-kit';
import { startNotesService } from './bootstrap';
import { describeConfig, loadNotesConfig } from './config/notes.config';

void runRpcService({
  service: 'notes',
  title: 'Notes service',
  load: () => loadNotesConfig(),
  describe: describeConfig,
  start: (config, logger) => startNotesService(config, logger),
});
