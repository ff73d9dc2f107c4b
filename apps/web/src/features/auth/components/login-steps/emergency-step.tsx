import { AuthLayout } from '../../../../components/auth-layout';
import { BoundFields, type BoundField } from '../../../../components/bound-fields';
import { Button } from '../../../../components/button';
import type { LoginFlow } from '../../state/use-login-flow';
import { BackToSignIn, IDENTIFIER_FIELD, LoginBanners, PASSWORD_FIELD, StepHeading } from './step-parts';

const EMERGENCY_FIELDS: BoundField<'username' | 'phoneNumber'>[] = [
  { field: 'username', label: 'Username', name: 'username', autoComplete: 'username' },
  { field: 'phoneNumber', label: 'Phone number', name: 'phoneNumber', type: 'tel', autoComplete: 'tel' },
];

/** The emergency step (418): username and phone number with the identifier and password again. */
export function EmergencyStep({ flow }: { flow: LoginFlow }) {
  const { emergency, busy } = flow.state;
  const { locked } = flow;
  const disabled = busy || locked;
  return (
    <AuthLayout title="Verify it's you">
      <StepHeading>Emergency verification</StepHeading>
      <form className="form" onSubmit={flow.submitEmergency} noValidate>
        <LoginBanners flow={flow} />
        <BoundFields
          fields={EMERGENCY_FIELDS}
          values={emergency}
          onEdit={flow.editEmergency}
          disabled={disabled}
        />
        <BoundFields
          fields={[IDENTIFIER_FIELD, PASSWORD_FIELD]}
          values={flow.state}
          onEdit={flow.edit}
          disabled={disabled}
        />
        <Button type="submit" block loading={busy} loadingLabel="Verifying..." disabled={locked}>
          Verify and sign in
        </Button>
        <div className="form__links">
          <BackToSignIn flow={flow} />
        </div>
      </form>
    </AuthLayout>
  );
}
