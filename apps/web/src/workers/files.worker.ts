/**
 * The files Web Worker: decrypts file names, types and tags in batches, opens thumbnails, and
 * seals files for upload (metadata, thumbnail, and the content in 64 KiB chunks, either into a
 * staging file or straight to the storage in parts as it is sealed), all off the UI thread. The app runs two of them (files-crypto.ts): one for
 * the list, one for uploads, so a 100 MB upload never holds up the list.
 *
 * Requests are handled one after another, in the order they arrive.
 */
import { handleFilesRequest } from './files-dispatch';
import type { FilesWorkerRequest, FilesWorkerResponse } from './files-messages';

interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<FilesWorkerRequest>) => void): void;
  postMessage(message: FilesWorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
let queue: Promise<void> = Promise.resolve();

scope.addEventListener('message', (event) => {
  const request = event.data;
  queue = queue.then(async () => {
    const answer = await handleFilesRequest(request, (progress) => scope.postMessage(progress));
    // A decrypted thumbnail's buffer moves to the page instead of being copied.
    const transfer =
      answer.kind === 'answer' && answer.ok && answer.result instanceof Uint8Array
        ? [answer.result.buffer as ArrayBuffer]
        : [];
    scope.postMessage(answer, transfer);
  });
});
