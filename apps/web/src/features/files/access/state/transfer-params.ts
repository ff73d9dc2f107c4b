import type { FileDecryptParams, FilesDownloadCrypto } from '../../../../workers/files-download-crypto';
import type { FileView } from '../../types';

/** What the download worker needs to open a file's chunks. */
export const paramsOf = (file: FileView): FileDecryptParams => ({
  fileId: file.dto.id,
  wrappedKey: file.dto.wrappedKey,
  iv: file.dto.iv,
  chunkSize: file.dto.chunkSize,
  size: file.dto.size,
});

/** How downloads and previews reach storage and decrypt. */
export interface TransferDeps {
  filesCrypto: FilesDownloadCrypto;
  /** The fetch used for the signed storage URLs (tests pass their fake server's). */
  fetchImpl: typeof fetch | undefined;
  apiBaseUrl: string;
}
