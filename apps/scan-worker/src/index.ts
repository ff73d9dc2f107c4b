/** What other tooling may import from the scan worker (scripts, docs generators). */
export { AppModule, type ScanWorkerOverrides } from './app.module';
export { startScanWorker } from './bootstrap';
export {
  loadScanWorkerConfig,
  scanWorkerEnvSchema,
  type ScanWorkerConfig,
  type ScanWorkerEnv,
} from './config/scan-worker.config';
export { SCAN_FILE_JOB, SCAN_RESULT_JOB } from '@vault/server-kit';
