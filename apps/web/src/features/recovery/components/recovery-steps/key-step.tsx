import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepForm } from './step-parts';

/** The recovery key from the kit: the one way that brings the old vault key back. */
export function KeyStep({ flow }: { flow: RecoveryFlow }) {
  return (
    <StepForm
      flow={flow}
      onSubmit={flow.submitKey}
      lead="Paste the recovery key from the recovery kit you saved when you created your account or in Settings. It brings back your notes and files as they are."
      fields={[
        {
          field: 'keyText',
          label: 'Recovery key',
          name: 'recoveryKey',
          autoComplete: 'off',
          autoCapitalize: 'characters',
          spellCheck: false,
          placeholder: 'XXXX-XXXX-XXXX-...',
          autoFocus: true,
        },
      ]}
      submitLabel="Verify recovery key"
      busyLabel="Checking key..."
    />
  );
}
