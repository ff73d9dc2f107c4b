/** Benchmark page (apps/web/bench/files-upload.bench.mjs): drives the worker, then PUTs the ciphertext with XHR. */
declare global {
  interface Window {
    runUpload(mode: string, size: number): Promise<unknown>;
    makeSource(size: number): Promise<unknown>;
    phase(name: string): Promise<void>;
  }
}

const worker = new Worker('/worker.js');

function ask(message: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => {
      const data = e.data as Record<string, unknown>;
      if (data['ok']) resolve(data);
      else reject(new Error(String(data['error'])));
    };
    worker.postMessage(message);
  });
}

function put(blob: Blob): Promise<number> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', '/upload');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.onload = () =>
      xhr.status === 200 ? resolve(Number(xhr.responseText)) : reject(new Error(`status ${xhr.status}`));
    xhr.onerror = () => reject(new Error('network'));
    xhr.send(blob);
  });
}

window.makeSource = (size) => ask({ cmd: 'source', size });

window.runUpload = async (mode, size) => {
  await window.phase(`${mode}:encrypt`);
  const prepared = await ask({ cmd: 'prepare', mode, size });
  await window.phase(`${mode}:upload`);
  const started = performance.now();
  const received = await put(prepared['ciphertext'] as Blob);
  const uploadMs = performance.now() - started;
  await window.phase(`${mode}:release`);
  await ask({ cmd: 'release' });
  await window.phase(`${mode}:done`);
  return {
    encryptMs: prepared['ms'],
    uploadMs,
    received,
    encryptedSize: prepared['encryptedSize'],
    staging: prepared['staging'],
    maxHeldBytes: prepared['maxHeldBytes'],
  };
};

export {};
