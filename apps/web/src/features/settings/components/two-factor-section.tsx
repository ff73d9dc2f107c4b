import { useState } from 'react';
import { Banner, ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { SettingsSection } from '../../../components/settings-section';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { formatDate } from '../../../lib/format';
import { useQueryCache } from '../../../lib/query';
import { meQueryKey, useMe } from '../../../lib/session/get-me';
import {
  backupCodesInfoQueryKey,
  disableTwoFactor,
  enableTwoFactor,
  regenerateBackupCodes,
  useBackupCodesInfo,
} from '../api/two-factor';
import { useAction } from '../hooks/use-action';
import { backupCodesFileName, backupCodesText } from '../utils/kit-text';
import { SETTINGS_MESSAGES, failureText } from '../utils/settings-validation';
import { ProofDialog } from './proof-dialog';
import { BackupCodesPanel } from './secret-panel';
import { TwoFactorSetup } from './two-factor-setup';

type Phase =
  | { kind: 'idle' }
  | { kind: 'setup'; otpauthUrl: string }
  | { kind: 'codes'; codes: string[]; generatedAt: Date; after: 'enabled' | 'regenerated' };

/**
 * Two-step verification (spec section 4 "2FA"): disabled → Enable (otpauth URL as a QR code and as
 * text) → the first 6-digit code turns it on and answers the 10 backup codes, shown once → enabled,
 * with Disable (asks for a code or the password). Backup codes: how many are left, and Regenerate.
 */
export function TwoFactorSections() {
  const api = useApiClient();
  const cache = useQueryCache();
  const me = useMe();
  const enabled = me.data?.user.twoFactorEnabled ?? false;
  const account = me.data?.user.email ?? me.data?.user.username ?? '';
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const { busy: starting, error, run } = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [disableOpen, setDisableOpen] = useState(false);
  const [regenerateOpen, setRegenerateOpen] = useState(false);
  const info = useBackupCodesInfo(enabled);

  const refresh = () => {
    cache.invalidate(meQueryKey);
    cache.invalidate(backupCodesInfoQueryKey);
  };

  const start = () => {
    setNotice(null);
    return run(SETTINGS_MESSAGES.enableFailed, async () => {
      setPhase({ kind: 'setup', otpauthUrl: await enableTwoFactor(api) });
    });
  };

  const codesPanel =
    phase.kind === 'codes' ? (
      <BackupCodesPanel
        codes={phase.codes}
        fileName={backupCodesFileName(phase.generatedAt)}
        fileBody={() => backupCodesText(phase.codes, account, phase.generatedAt)}
        onDone={() => setPhase({ kind: 'idle' })}
      />
    ) : null;

  let body;
  if (!me.data) {
    body =
      me.status === 'error' ? (
        <Banner tone="danger">{messageOf(me.error, 'Failed to load account details')}</Banner>
      ) : (
        <Spinner label="Loading two-step verification status" />
      );
  } else if (phase.kind === 'setup') {
    body = (
      <TwoFactorSetup
        otpauthUrl={phase.otpauthUrl}
        onCancel={() => setPhase({ kind: 'idle' })}
        onVerified={(codes) => {
          setPhase({ kind: 'codes', codes, generatedAt: new Date(), after: 'enabled' });
          refresh();
        }}
      />
    );
  } else if (phase.kind === 'codes' && phase.after === 'enabled') {
    body = (
      <>
        <Banner tone="success">Two-step verification is on.</Banner>
        {codesPanel}
      </>
    );
  } else if (enabled) {
    body = (
      <div className="settings-row">
        <span className="tag tag--success">Enabled</span>
        <Button variant="secondary" onClick={() => setDisableOpen(true)}>
          Disable 2FA
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="settings-row">
        <span className="tag tag--muted">Disabled</span>
        <Button onClick={() => void start()} loading={starting} loadingLabel="Starting...">
          Enable 2FA
        </Button>
      </div>
    );
  }

  return (
    <>
      <SettingsSection
        title="Two-step verification"
        description="Ask for a 6-digit code from an authenticator app (Google Authenticator, 1Password, Aegis...) when you sign in."
      >
        {body}
        <ErrorBanner error={error} />
        {notice ? <Banner tone="success">{notice}</Banner> : null}
      </SettingsSection>
      {enabled && !(phase.kind === 'codes' && phase.after === 'enabled') ? (
        <SettingsSection
          title="Backup codes"
          description="Single-use codes (XXXX-XXXX) for signing in when your authenticator app is not at hand."
        >
          {info.data ? (
            <p className="settings-hint" data-testid="backup-codes-info">
              <strong>
                {info.data.unusedCodesCount} of {info.data.totalCodes}
              </strong>{' '}
              codes unused
              {info.data.generated
                ? ` · generated ${formatDate(info.data.generated) ?? info.data.generated}`
                : ''}
            </p>
          ) : info.status === 'error' ? (
            <Banner tone="danger">{messageOf(info.error, 'Failed to load backup codes')}</Banner>
          ) : (
            <Spinner label="Loading backup codes" />
          )}
          {phase.kind === 'codes' && phase.after === 'regenerated' ? (
            codesPanel
          ) : (
            <div className="settings-actions">
              <Button variant="secondary" onClick={() => setRegenerateOpen(true)}>
                Regenerate codes
              </Button>
            </div>
          )}
        </SettingsSection>
      ) : null}
      <ProofDialog
        open={disableOpen}
        title="Disable two-step verification?"
        warning="Signing in will need only your password, and your backup codes will stop working. Confirm with a code from your authenticator app or your password."
        confirmLabel="Disable 2FA"
        busyLabel="Disabling..."
        failMessage={SETTINGS_MESSAGES.disableFailed}
        danger
        onClose={() => setDisableOpen(false)}
        onConfirm={async (proof) => {
          try {
            await disableTwoFactor(api, proof);
          } catch (e) {
            throw new Error(failureText(e, SETTINGS_MESSAGES.disableFailed));
          }
          setDisableOpen(false);
          setPhase({ kind: 'idle' });
          setNotice('Two-step verification is off.');
          refresh();
        }}
      />
      <ProofDialog
        open={regenerateOpen}
        title="Regenerate backup codes?"
        warning={`${SETTINGS_MESSAGES.regenerateWarning}. Confirm with a code from your authenticator app or your password.`}
        confirmLabel="Regenerate"
        busyLabel="Regenerating..."
        failMessage={SETTINGS_MESSAGES.regenerateFailed}
        onClose={() => setRegenerateOpen(false)}
        onConfirm={async (proof) => {
          let codes: string[];
          try {
            codes = await regenerateBackupCodes(api, proof);
          } catch (e) {
            throw new Error(failureText(e, SETTINGS_MESSAGES.regenerateFailed));
          }
          setRegenerateOpen(false);
          setNotice(null);
          setPhase({ kind: 'codes', codes, generatedAt: new Date(), after: 'regenerated' });
          cache.invalidate(backupCodesInfoQueryKey);
        }}
      />
    </>
  );
}
