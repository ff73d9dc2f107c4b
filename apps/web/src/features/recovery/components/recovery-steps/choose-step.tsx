import { Button } from '../../../../components/button';
import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepForm } from './step-parts';

/** The account's e-mail, then how to prove it: an e-mail code, the security questions or the recovery key. */
export function ChooseStep({ flow }: { flow: RecoveryFlow }) {
  const { busy } = flow.state;
  return (
    <StepForm
      flow={flow}
      onSubmit={(e) => {
        e.preventDefault();
        void flow.chooseEmail();
      }}
      lead="Enter the email address of your account, then choose how to prove it is yours."
      submitLabel="Email Recovery Code"
      fields={[
        {
          field: 'email',
          label: 'Email',
          name: 'email',
          type: 'email',
          autoComplete: 'email',
          autoFocus: true,
        },
      ]}
      busyLabel="Please wait..."
      after={
        <>
          <Button variant="secondary" block onClick={() => void flow.chooseQuestions()} disabled={busy}>
            Security Questions
          </Button>
          <Button variant="secondary" block onClick={flow.chooseKey} disabled={busy}>
            Recovery Key
          </Button>
          <p className="field__hint">
            Only your recovery key can bring back your notes and files as they are. An email code or your
            security questions let you into your account again with a new vault key.
          </p>
        </>
      }
    />
  );
}
