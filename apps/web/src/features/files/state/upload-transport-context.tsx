import { createContext, useContext, type ReactNode } from 'react';
import { xhrUploadTransport, type UploadTransport } from './upload-transport';

const UploadTransportContext = createContext<UploadTransport | null>(null);

/** Tests pass a fake storage; the app uses XMLHttpRequest. */
export function UploadTransportProvider({
  transport,
  children,
}: {
  transport: UploadTransport;
  children: ReactNode;
}) {
  return <UploadTransportContext.Provider value={transport}>{children}</UploadTransportContext.Provider>;
}

export function useUploadTransport(): UploadTransport {
  return useContext(UploadTransportContext) ?? xhrUploadTransport;
}
