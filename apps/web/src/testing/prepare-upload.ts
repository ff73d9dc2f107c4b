import type { PreparedUpload, UploadInput } from '../workers/files-messages';
import {
  defaultUploadEnvironment,
  sealUploadMeta,
  stageUpload,
  type UploadEnvironment,
} from '../workers/files-ops';

/** Both steps of a staged (whole-object) upload in one call, as the worker runs them for S3 and Cloudinary. */
export async function prepareUpload(
  key: CryptoKey,
  input: UploadInput,
  onProgress: (done: number, total: number) => void = () => undefined,
  env: Pick<UploadEnvironment, 'openStaging' | 'makeThumbnail'> = defaultUploadEnvironment,
): Promise<PreparedUpload> {
  const fields = await sealUploadMeta(key, input, env);
  return stageUpload(key, fields, input, onProgress, env);
}
