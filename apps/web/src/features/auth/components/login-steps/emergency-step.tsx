import { AuthLayout } from '../../../../components/auth-layout';
import { Button } from '../../../../components/button';
import { TextField } from '../../../../components/input';
import { PasswordInput } from '../../../../components/password-input';
import type { LoginFlow } from '../../state/use-login-flow';
import { LoginBanners, useStepHeading } from './step-parts';

/** The emergency step (418): username and phone number with the identifier and password again. */
export function EmergencyStep({ flow }: { flow: LoginFlow }) {
  const { emergency, identifier, password, busy } = flow.state;
  const { locked } = flow;
  const disabled = busy || locked;
  const headingRef = useStepHeading();
  return (
    <AuthLayout title="Verify it's you">
      <h2 className="visually-hidden" tabIndex={-1} ref={headingRef}>
        Emergency verification
      </h2>
      <form className="form" onSubmit={flow.submitEmergency} noValidate>
        <LoginBanners flow={flow} />
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          value={emergency.username}
          onChange={(e) => flow.editEmergency('username', e.target.value)}
          disabled={disabled}
        />
        <TextField
          label="Phone number"
          name="phoneNumber"
          type="tel"
          autoComplete="tel"
          value={emergency.phoneNumber}
          onChange={(e) => flow.editEmergency('phoneNumber', e.target.value)}
          disabled={disabled}
        />
        <TextField
          label="Username, email or phone"
          name="identifier"
          autoComplete="username"
          value={identifier}
          onChange={(e) => flow.edit('identifier', e.target.value)}
          disabled={disabled}
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => flow.edit('password', e.target.value)}
          disabled={disabled}
        />
        <Button type="submit" block loading={busy} loadingLabel="Verifying..." disabled={locked}>
          Verify and sign in
        </Button>
        <div className="form__links">
          <button type="button" className="link-btn" onClick={flow.backToCredentials} disabled={busy}>
            Back to sign in
          </button>
        </div>
      </form>
    </AuthLayout>
  );
}
