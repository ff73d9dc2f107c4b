/**
 * The files Web Worker: decrypts file names, types and tags in batches, opens thumbnails, and
 * seals files for upload (metadata, thumbnail, and the content in 64 KiB chunks, either into a
 * staging file or straight to the storage in parts as it is sealed), all off the UI thread. The
 * app runs two of them (files-crypto.ts): one for the list, one for uploads, so a 100 MB upload
 * never holds up the list.
 *
 * Calls are handled one after another, in the order they arrive.
 */
import { createFilesApi } from './files-ops';
import { exposeWorkerApi } from './worker-rpc';

exposeWorkerApi(createFilesApi(), { inOrder: true });
