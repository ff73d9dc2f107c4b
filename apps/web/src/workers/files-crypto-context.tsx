import { createContext, useContext, type ReactNode } from 'react';
import { defaultFilesCrypto, type FilesCrypto } from './files-crypto';

const FilesCryptoContext = createContext<FilesCrypto | null>(null);

/** Optional: tests (or the app's providers) may pass their own; otherwise the shared worker client is used. */
export function FilesCryptoProvider({ service, children }: { service: FilesCrypto; children: ReactNode }) {
  return <FilesCryptoContext.Provider value={service}>{children}</FilesCryptoContext.Provider>;
}

export function useFilesCrypto(): FilesCrypto {
  return useContext(FilesCryptoContext) ?? defaultFilesCrypto();
}
