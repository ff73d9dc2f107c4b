import { cryptoErrorCode } from './crypto-service';
import type { FilesWorkerRequest, FilesWorkerResponse, FilesWorkerResult } from './files-messages';
import {
  decryptMetadataBatch,
  defaultUploadEnvironment,
  openThumbnail,
  sealUploadMeta,
  sendUploadParts,
  stageUpload,
  type UploadEnvironment,
} from './files-ops';
import { releaseStaging } from './files-staging';

/**
 * Runs one request and turns any failure into `{code, message}` (errors do not clone well).
 * `progress` carries an upload's progress to the caller before the answer; `env` is where
 * uploads stage and send (the browser's by default; tests pass their own).
 */
export async function handleFilesRequest(
  req: FilesWorkerRequest,
  progress: (message: FilesWorkerResponse) => void = () => undefined,
  env: UploadEnvironment = defaultUploadEnvironment,
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
      case 'sealUploadMeta':
        result = await sealUploadMeta(req.key, req.input, env);
        break;
      case 'stageUpload':
        result = await stageUpload(
          req.key,
          req.fields,
          req.input,
          (done, total) => progress({ id: req.id, kind: 'progress', done, total }),
          env,
        );
        break;
      case 'sendUpload':
        result = await sendUploadParts(
          req.key,
          req.fields,
          req.input,
          req.target,
          (done, total, sent) => progress({ id: req.id, kind: 'progress', done, total, sent }),
          env,
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
