import { Button } from '../../../../components/button';
import { TextField } from '../../../../components/input';
import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepBanners, TryAnotherWay } from './step-parts';

/** The recovery key from the kit: the one way that brings the old vault key back. */
export function KeyStep({ flow }: { flow: RecoveryFlow }) {
  const { keyText, busy } = flow.state;
  return (
    <form className="form" onSubmit={flow.submitKey} noValidate>
      <StepBanners flow={flow} />
      <p className="auth__lead">
        Paste the recovery key from the recovery kit you saved when you created your account or in Settings.
        It brings back your notes and files as they are.
      </p>
      <TextField
        label="Recovery key"
        name="recoveryKey"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="XXXX-XXXX-XXXX-..."
        value={keyText}
        onChange={(e) => flow.edit('keyText', e.target.value)}
        disabled={busy}
        autoFocus
      />
      <Button type="submit" block loading={busy} loadingLabel="Checking key...">
        Verify recovery key
      </Button>
      <div className="form__links">
        <TryAnotherWay flow={flow} />
      </div>
    </form>
  );
}
