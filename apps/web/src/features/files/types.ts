import type { FileDto } from '@vault/contracts';

/**
 * A file as the File Vault shows it: the sealed record from the API beside what this device
 * decrypted from it. Shared by the vault screen (listing, upload) and file access (download,
 * preview), which are built as separate parts of features/files.
 */
export interface FileView {
  dto: FileDto;
  /** 'decrypting' until the metadata is opened; 'failed' when it could not be (shown as 'Encrypted File'). */
  status: 'decrypting' | 'ready' | 'failed';
  /** Decrypted name ('Encrypted File' when it could not be decrypted). */
  name: string;
  /** Decrypted MIME type ('application/octet-stream' when it could not be decrypted). */
  mimeType: string;
  tags: string[];
}

/** Download and preview progress of one file (spec: stages Downloading, Decrypting, Completed). */
export interface FileTransferProgress {
  stage: 'downloading' | 'decrypting' | 'completed' | 'error';
  /** 0 to 100. */
  percent: number;
  error?: string;
}
