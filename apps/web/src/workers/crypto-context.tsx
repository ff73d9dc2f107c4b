import type { ReactNode } from 'react';
import { createRequiredContext } from '../lib/required-context';
import type { CryptoService } from './crypto-service';

const CryptoContext = createRequiredContext<CryptoService>('useCrypto needs a CryptoProvider');

export function CryptoProvider({ service, children }: { service: CryptoService; children: ReactNode }) {
  return <CryptoContext.Provider value={service}>{children}</CryptoContext.Provider>;
}

export const useCrypto = CryptoContext.use;
