import { useCallback } from 'react';
import { useApiClient } from '../../../lib/api-context';
import { useRuntimeConfig } from '../../../lib/config-context';
import { useSession } from '../../../lib/session/session-context';
import { useCrypto } from '../../../workers/crypto-context';
import { useFilesCrypto } from '../../../workers/files-crypto-context';
import { defaultFilesDownloadCrypto } from '../../../workers/files-download-crypto';
import { useNotesCrypto } from '../../../workers/notes-crypto-context';
import type { TestingContext } from './context';

export type MakeTestingContext = (base: Pick<TestingContext, 'signal' | 'log' | 'quick'>) => TestingContext;

/**
 * Builds each run's context from the app's services and the signed-in session. `askFileAuthKey`
 * (the page's password dialog) is offered to full runs only: Quick Test never asks for a password.
 */
export function useTestingContext(
  askFileAuthKey?: (signal: AbortSignal) => Promise<string | null>,
): MakeTestingContext {
  const api = useApiClient();
  const crypto = useCrypto();
  const config = useRuntimeConfig();
  const { user, vaultKey } = useSession();
  const notesCrypto = useNotesCrypto();
  const filesCrypto = useFilesCrypto();
  return useCallback(
    (base) => ({
      ...base,
      api,
      crypto,
      config,
      vaultKey,
      user: {
        id: user?.id ?? '',
        email: user?.email ?? '',
        twoFactorEnabled: user?.twoFactorEnabled ?? false,
      },
      fetch: (input, init) => globalThis.fetch(input, init),
      notesCrypto,
      filesCrypto,
      filesDownloadCrypto: defaultFilesDownloadCrypto(),
      ...(askFileAuthKey && !base.quick ? { fileAuthKey: () => askFileAuthKey(base.signal) } : {}),
      pageUrl: globalThis.location?.href ?? 'http://localhost/',
      readCookies: () => (typeof document === 'undefined' ? '' : document.cookie),
      now: () => Date.now(),
    }),
    [api, crypto, config, user, vaultKey, notesCrypto, filesCrypto, askFileAuthKey],
  );
}
