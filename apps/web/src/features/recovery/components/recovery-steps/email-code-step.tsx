import { Button } from '../../../../components/button';
import { TextField } from '../../../../components/input';
import { CODE_LENGTH, sanitizeCode } from '../../../../lib/two-factor';
import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepBanners, TryAnotherWay } from './step-parts';

/** The 6-digit code from the recovery e-mail (and Send a new code). */
export function EmailCodeStep({ flow }: { flow: RecoveryFlow }) {
  const { code, busy } = flow.state;
  return (
    <form className="form" onSubmit={flow.submitCode} noValidate>
      <StepBanners flow={flow} />
      <p className="auth__lead">Enter the 6-digit code from the email sent to {flow.trimmedEmail}.</p>
      <TextField
        label="Recovery code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="123456"
        maxLength={CODE_LENGTH}
        value={code}
        onChange={(e) => flow.edit('code', sanitizeCode(e.target.value))}
        disabled={busy}
        autoFocus
        className="field--code"
      />
      <Button type="submit" block loading={busy} loadingLabel="Verifying...">
        Verify code
      </Button>
      <div className="form__links">
        <button type="button" className="link-btn" onClick={() => void flow.resendCode()} disabled={busy}>
          Send a new code
        </button>
        <TryAnotherWay flow={flow} />
      </div>
    </form>
  );
}
