import { useCallback } from 'react';
import { useApiClient } from '../../../lib/api-context';
import { deriveAuthKey } from '../../../lib/session/derive-auth-key';
import { useSession } from '../../../lib/session/session-context';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCrypto } from '../../../workers/crypto-context';
import { getAbout } from '../api/about';
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
  const email = useSession().user?.email ?? '';
  // As the File Vault does before a download: the password becomes the authKey on this device.
  const derive = useCallback(
    (password: string) => deriveAuthKey(api, crypto, email, password),
    [api, crypto, email],
  );
  const filePassword = useFilePassword(derive);
  const makeCtx = useTestingContext(filePassword.ask);
  const loadAbout = useCallback((signal: AbortSignal) => getAbout(api, signal), [api]);
  return (
    <>
      <TestingDashboard suites={SUITES} makeCtx={makeCtx} store={indexedDbRecentRuns} loadAbout={loadAbout} />
      <FilePasswordDialog {...filePassword.dialog} />
    </>
  );
}
