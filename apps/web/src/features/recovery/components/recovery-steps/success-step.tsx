import { Banner } from '../../../../components/banner';
import { Button } from '../../../../components/button';
import type { Done, RecoveryFlow } from '../../state/use-recovery-flow';
import { RECOVERY_WINDOW_MINUTES } from '../../utils/recovery-messages';

/** Recovered: signed in on Go to Security Settings or Continue to Vault. */
export function SuccessStep({ flow, done }: { flow: RecoveryFlow; done: Done }) {
  return (
    <div className="form">
      <Banner tone="success" title="Recovery successful">
        Your new password is set and your vault is unlocked on this device. For the next{' '}
        {RECOVERY_WINDOW_MINUTES} minutes, review your security settings: turn on two-step verification, and
        make a new recovery key.
      </Banner>
      {done.keptVaultKey ? null : (
        <p className="auth__lead">
          Notes and files from before the reset show as locked in your vault until you enter your old password
          there.
        </p>
      )}
      <Button block onClick={() => void flow.finish('/settings?tab=security&recovery=true')}>
        Go to Security Settings
      </Button>
      <Button variant="secondary" block onClick={() => void flow.finish('/vault')}>
        Continue to Vault
      </Button>
    </div>
  );
}
