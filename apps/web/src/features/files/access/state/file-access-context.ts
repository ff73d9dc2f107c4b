import { createContext, useContext } from 'react';
import type { FileTransferProgress, FileView } from '../../types';

export interface FileAccess {
  /** Asks for the password ('Authenticate Download'), then downloads, decrypts and saves the file. */
  requestDownload(file: FileView): void;
  /** Asks for the password ('Authenticate Preview'), then decrypts the file in memory and shows it. */
  requestPreview(file: FileView): void;
  /** Transfers in progress by file id: Downloading / Decrypting with a percent, Completed (cleared 3 s later), or an error. */
  progress: ReadonlyMap<string, FileTransferProgress>;
}

export const FileAccessContext = createContext<FileAccess | null>(null);

/** Download and preview of files, with their progress; needs a FileAccessProvider above. */
export function useFileAccess(): FileAccess {
  const access = useContext(FileAccessContext);
  if (!access) throw new Error('useFileAccess needs a FileAccessProvider');
  return access;
}
