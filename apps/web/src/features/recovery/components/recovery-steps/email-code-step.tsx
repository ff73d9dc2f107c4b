import { CODE_LENGTH, sanitizeCode } from '../../../../lib/two-factor';
import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepForm, StepLinks } from './step-parts';

/** The 6-digit code from the recovery e-mail (and Send a new code). */
export function EmailCodeStep({ flow }: { flow: RecoveryFlow }) {
  const { busy } = flow.state;
  return (
    <StepForm
      flow={flow}
      onSubmit={flow.submitCode}
      lead={`Enter the 6-digit code from the email sent to ${flow.trimmedEmail}.`}
      submitLabel="Verify code"
      fields={[
        {
          field: 'code',
          label: 'Recovery code',
          name: 'code',
          inputMode: 'numeric',
          autoComplete: 'one-time-code',
          placeholder: '123456',
          maxLength: CODE_LENGTH,
          clean: sanitizeCode,
          autoFocus: true,
          className: 'field--code',
        },
      ]}
      busyLabel="Verifying..."
      after={
        <StepLinks flow={flow}>
          <button type="button" className="link-btn" onClick={() => void flow.resendCode()} disabled={busy}>
            Send a new code
          </button>
        </StepLinks>
      }
    />
  );
}
