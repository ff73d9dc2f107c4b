/**
 * The crypto Web Worker: Argon2id and every key operation run here, off the UI thread.
 * Module worker (`new Worker(new URL('./crypto.worker.ts', import.meta.url), { type: 'module' })`).
 */
import { CryptoOps } from './crypto-ops';
import { handleCryptoRequest } from './crypto-dispatch';
import type { CryptoRequest, CryptoResponse } from './crypto-messages';

interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<CryptoRequest>) => void): void;
  postMessage(message: CryptoResponse): void;
}

const scope = self as unknown as WorkerScope;
const ops = new CryptoOps();

scope.addEventListener('message', (event) => {
  void handleCryptoRequest(ops, event.data).then((response) => scope.postMessage(response));
});
