/**
 * The files-download Web Worker: opens a file's key and decrypts its content stream (64 KiB
 * AES-256-GCM chunks, each verified before its plaintext moves on) off the UI thread. It fetches
 * the stored object itself (fetchDecrypt) and sends the plaintext back in transferred buffers, or
 * takes the stored bytes as a transferred ReadableStream and answers with one (decrypt); either way
 * a 100 MB file flows through with backpressure and never sits whole in this worker.
 * Module worker (`new Worker(new URL('./files-download.worker.ts', import.meta.url), { type: 'module' })`).
 * Calls run side by side: each file is its own stream, and WebCrypto does the work.
 */
import { createFilesDownloadApi } from './files-download-api';
import { exposeWorkerApi } from './worker-rpc';

exposeWorkerApi(createFilesDownloadApi());
