import { AuthLayout } from '../../../../components/auth-layout';
import { Button } from '../../../../components/button';
import { SecondFactorField, SecondFactorToggle } from '../../../../components/second-factor-field';
import type { LoginFlow } from '../../state/use-login-flow';
import { BackToSignIn, LoginBanners, StepHeading } from './step-parts';

/** The second factor: a 6-digit authenticator code, or one of the saved backup codes. */
export function CodeStep({ flow }: { flow: LoginFlow }) {
  const { useBackup, code, backupCode, busy } = flow.state;
  const { locked } = flow;
  return (
    <AuthLayout title="Two-step verification">
      <StepHeading>Two-step verification</StepHeading>
      <p className="auth__lead">
        {useBackup
          ? 'Enter one of the backup codes you saved when you turned on two-step verification.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <form className="form" onSubmit={flow.submitCode} noValidate>
        <LoginBanners flow={flow} />
        <SecondFactorField
          useBackup={useBackup}
          code={code}
          backupCode={backupCode}
          onCode={(value) => flow.edit('code', value)}
          onBackupCode={(value) => flow.edit('backupCode', value)}
          disabled={busy || locked}
        />
        <Button type="submit" block loading={busy} loadingLabel="Verifying..." disabled={locked}>
          Verify
        </Button>
        <div className="form__links">
          <SecondFactorToggle useBackup={useBackup} onToggle={flow.toggleBackup} disabled={busy} />
          <BackToSignIn flow={flow} />
        </div>
      </form>
    </AuthLayout>
  );
}
