import { createContext, useContext, type ReactNode } from 'react';
import { defaultNotesCrypto, type NotesCrypto } from './notes-crypto';

const NotesCryptoContext = createContext<NotesCrypto | null>(null);

/** Optional: tests (or the app's providers) may pass their own; otherwise the shared worker client is used. */
export function NotesCryptoProvider({ service, children }: { service: NotesCrypto; children: ReactNode }) {
  return <NotesCryptoContext.Provider value={service}>{children}</NotesCryptoContext.Provider>;
}

export function useNotesCrypto(): NotesCrypto {
  return useContext(NotesCryptoContext) ?? defaultNotesCrypto();
}
