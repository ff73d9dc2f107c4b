import { createContext, useContext, type ReactNode } from 'react';
import type { CryptoService } from './crypto-service';

const CryptoContext = createContext<CryptoService | null>(null);

export function CryptoProvider({ service, children }: { service: CryptoService; children: ReactNode }) {
  return <CryptoContext.Provider value={service}>{children}</CryptoContext.Provider>;
}

export function useCrypto(): CryptoService {
  const service = useContext(CryptoContext);
  if (!service) throw new Error('useCrypto needs a CryptoProvider');
  return service;
}
