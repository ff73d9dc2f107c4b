/**
 * The notes Web Worker: decrypts the vault's notes in batches, seals new and edited notes, and
 * seals or opens password-encrypted backups (Argon2id), all off the UI thread.
 *
 * Calls are handled strictly one after another, in the order they arrive: the client sends
 * the first screen's batch first, so it is never slowed down by the batches behind it. Within a
 * batch the notes are decrypted concurrently (WebCrypto runs them in parallel).
 */
import { notesApi } from './notes-ops';
import { exposeWorkerApi } from './worker-rpc';

exposeWorkerApi(notesApi, { inOrder: true });
