/**
 * Browser entry for run-vectors.mjs, bundled by esbuild (IIFE). The same bundle runs in the page and in a
 * dedicated Web Worker: both run every vector check and the refusal checks through the real library.
 *
 * Page:   globalThis.__vaultCryptoVectors() → Promise<BrowserRun> (page results + worker results)
 * Worker: answers any message with its own results.
 */
import { buildRefusalChecks, buildVectorChecks } from '../../vectors/vector-checks';

export interface CheckResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export interface BrowserRun {
  userAgent: string;
  secureContext: boolean;
  results: CheckResult[];
}

async function runChecks(where: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const env: CheckResult = {
    name: `[${where}] secure context with crypto.subtle`,
    ok: globalThis.isSecureContext === true && typeof globalThis.crypto?.subtle?.encrypt === 'function',
    ms: 0,
  };
  results.push(env);
  for (const check of [...buildVectorChecks(), ...buildRefusalChecks()]) {
    const started = performance.now();
    try {
      await check.run();
      results.push({
        name: `[${where}] ${check.name}`,
        ok: true,
        ms: Math.round(performance.now() - started),
      });
    } catch (e) {
      results.push({
        name: `[${where}] ${check.name}`,
        ok: false,
        ms: Math.round(performance.now() - started),
        error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
      });
    }
  }
  return results;
}

interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

const isWorker = typeof (globalThis as { document?: unknown }).document === 'undefined';

function runInWorker(script: string): Promise<CheckResult[]> {
  return new Promise((resolve) => {
    const worker = new Worker(script);
    worker.onmessage = (event: MessageEvent<CheckResult[]>) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve([{ name: '[worker] worker started', ok: false, ms: 0, error: event.message }]);
    };
    worker.postMessage('run');
  });
}

if (isWorker) {
  const scope = globalThis as unknown as WorkerScope;
  scope.onmessage = () => {
    void runChecks('worker').then((results) => scope.postMessage(results));
  };
} else {
  // document.currentScript is only set while the bundle first runs: remember our own URL for the worker.
  const bundleUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? '/vectors.js';
  (globalThis as unknown as { __vaultCryptoVectors: () => Promise<BrowserRun> }).__vaultCryptoVectors =
    async () => {
      const page = await runChecks('page');
      const worker = await runInWorker(bundleUrl);
      return {
        userAgent: navigator.userAgent,
        secureContext: globalThis.isSecureContext,
        results: [...page, ...worker],
      };
    };
}
