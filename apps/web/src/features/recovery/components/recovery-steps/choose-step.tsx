import { Button } from '../../../../components/button';
import { TextField } from '../../../../components/input';
import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepBanners } from './step-parts';

/** The account's e-mail, then how to prove it: an e-mail code, the security questions or the recovery key. */
export function ChooseStep({ flow }: { flow: RecoveryFlow }) {
  const { email, busy } = flow.state;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void flow.chooseEmail();
      }}
      noValidate
    >
      <StepBanners flow={flow} />
      <p className="auth__lead">
        Enter the email address of your account, then choose how to prove it is yours.
      </p>
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => flow.edit('email', e.target.value)}
        disabled={busy}
        autoFocus
      />
      <Button type="submit" block loading={busy} loadingLabel="Please wait...">
        Email Recovery Code
      </Button>
      <Button variant="secondary" block onClick={() => void flow.chooseQuestions()} disabled={busy}>
        Security Questions
      </Button>
      <Button variant="secondary" block onClick={flow.chooseKey} disabled={busy}>
        Recovery Key
      </Button>
      <p className="field__hint">
        Only your recovery key can bring back your notes and files as they are. An email code or your security
        questions let you into your account again with a new vault key.
      </p>
    </form>
  );
}
