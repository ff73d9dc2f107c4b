import { useCallback, useMemo } from 'react';
import { useApiClient } from '../../../lib/api-context';
import { useRuntimeConfig } from '../../../lib/config-context';
import { deriveAuthKey } from '../../../lib/session/derive-auth-key';
import { useSession } from '../../../lib/session/session-context';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCrypto } from '../../../workers/crypto-context';
import { getAbout } from '../api/about';
import { serverRunnerApi } from '../api/server-runner';
import { readBrowserInfo, readServerSettings, userSecrets } from '../reports/support-info';
import { useFilePassword } from '../model/use-file-password';
import { useTestingContext } from '../model/use-testing-context';
import { indexedDbRecentRuns } from '../store/recent-runs';
import { SUITES } from '../suites';
import { FilePasswordDialog } from './file-password-dialog';
import { TestingDashboard } from './testing-dashboard';

/** /testing (lazy-loaded by the router): the dashboard with the app's session, Worker and API. */
export function TestingPage() {
  useDocumentTitle('Testing Dashboard');
  const api = useApiClient();
  const crypto = useCrypto();
  const config = useRuntimeConfig();
  const user = useSession().user;
  const email = user?.email ?? '';
  // As the File Vault does before a download: the password becomes the authKey on this device.
  const derive = useCallback(
    (password: string) => deriveAuthKey(api, crypto, email, password),
    [api, crypto, email],
  );
  const filePassword = useFilePassword(derive);
  const makeCtx = useTestingContext(filePassword.ask);
  const loadAbout = useCallback((signal: AbortSignal) => getAbout(api, signal), [api]);
  const serverRunner = useMemo(() => serverRunnerApi(api), [api]);
  const loadSupportInfo = useCallback(async () => {
    const [browser, server] = await Promise.all([
      readBrowserInfo(),
      readServerSettings(api, config, AbortSignal.timeout(10_000)),
    ]);
    return { browser, server, secrets: userSecrets(user) };
  }, [api, config, user]);
  return (
    <>
      <TestingDashboard
        suites={SUITES}
        makeCtx={makeCtx}
        store={indexedDbRecentRuns}
        loadAbout={loadAbout}
        loadSupportInfo={loadSupportInfo}
        serverRunner={serverRunner}
      />
      <FilePasswordDialog {...filePassword.dialog} />
    </>
  );
}
