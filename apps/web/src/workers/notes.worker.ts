/**
 * The notes Web Worker: decrypts the vault's notes in batches, seals new and edited notes, and
 * seals or opens password-encrypted backups (Argon2id), all off the UI thread.
 *
 * Requests are handled strictly one after another, in the order they arrive: the client sends
 * the first screen's batch first, so it is never slowed down by the batches behind it. Within a
 * batch the notes are decrypted concurrently (WebCrypto runs them in parallel).
 */
import { handleNotesRequest } from './notes-dispatch';
import type { NotesWorkerRequest, NotesWorkerResponse } from './notes-messages';

interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<NotesWorkerRequest>) => void): void;
  postMessage(message: NotesWorkerResponse): void;
}

const scope = self as unknown as WorkerScope;
let queue: Promise<void> = Promise.resolve();

scope.addEventListener('message', (event) => {
  const request = event.data;
  queue = queue.then(async () => scope.postMessage(await handleNotesRequest(request)));
});
