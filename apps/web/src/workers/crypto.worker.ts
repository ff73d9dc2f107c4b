/**
 * The crypto Web Worker: Argon2id and every key operation run here, off the UI thread.
 * Module worker (`new Worker(new URL('./crypto.worker.ts', import.meta.url), { type: 'module' })`);
 * it serves CryptoOps, and the testing dashboard's self-test (crypto-self-test.ts), through
 * worker-rpc.ts, calls side by side.
 */
import { CryptoOps } from './crypto-ops';
import { cryptoSelfTestOps } from './crypto-self-test';
import { exposeWorkerApi } from './worker-rpc';

exposeWorkerApi(Object.assign(new CryptoOps(), cryptoSelfTestOps));
