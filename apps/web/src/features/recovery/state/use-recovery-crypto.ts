import { useCrypto } from '../../../workers/crypto-context';
import {
  isRecoveryCryptoService,
  type CryptoService,
  type RecoveryCryptoService,
} from '../../../workers/crypto-service';

export type RecoveryCrypto = CryptoService & RecoveryCryptoService;

/** The recovery operations of the crypto worker, or null when the running crypto service has none. */
export function useRecoveryCrypto(): RecoveryCrypto | null {
  const crypto = useCrypto();
  return isRecoveryCryptoService(crypto) ? crypto : null;
}
