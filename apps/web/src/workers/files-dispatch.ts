import { cryptoErrorCode } from './crypto-service';
import type { FilesWorkerRequest, FilesWorkerResponse, FilesWorkerResult } from './files-messages';
import { decryptMetadataBatch, openThumbnail, prepareUpload } from './files-ops';
import { releaseStaging } from './files-staging';

/**
 * Runs one request and turns any failure into `{code, message}` (errors do not clone well).
 * `progress` carries an upload's encryption progress to the caller before the answer.
 */
export async function handleFilesRequest(
  req: FilesWorkerRequest,
  progress: (message: FilesWorkerResponse) => void = () => undefined,
): Promise<FilesWorkerResponse> {
  try {
    let result: FilesWorkerResult;
    switch (req.op) {
      case 'decryptMetadata':
        result = await decryptMetadataBatch(req.key, req.files);
        break;
      case 'decryptThumbnail':
        result = await openThumbnail(req.key, req.file, req.encryptedThumbnail);
        break;
      case 'prepareUpload':
        result = await prepareUpload(req.key, req.input, (done, total) =>
          progress({ id: req.id, kind: 'progress', done, total }),
        );
        break;
      case 'releaseUpload':
        await releaseStaging(req.staging);
        result = null;
        break;
      default:
        throw new Error('Unknown files operation');
    }
    return { id: req.id, kind: 'answer', ok: true, result };
  } catch (error) {
    return {
      id: req.id,
      kind: 'answer',
      ok: false,
      error: {
        code: cryptoErrorCode(error) ?? 'INTERNAL',
        message: error instanceof Error ? error.message : 'Files crypto operation failed',
      },
    };
  }
}
