/**
 * The crypto Web Worker: Argon2id and every key operation run here, off the UI thread.
 * Module worker (`new Worker(new URL('./crypto.worker.ts', import.meta.url), { type: 'module' })`);
 * it serves CryptoOps through worker-rpc.ts, calls side by side.
 */
import { CryptoOps } from './crypto-ops';
import { exposeWorkerApi } from './worker-rpc';

exposeWorkerApi(new CryptoOps());
