import { Link } from 'react-router-dom';
import { AuthLayout } from '../../../../components/auth-layout';
import { Button } from '../../../../components/button';
import { BoundFields } from '../../../../components/bound-fields';
import { Checkbox } from '../../../../components/checkbox';
import type { LoginFlow } from '../../state/use-login-flow';
import { IDENTIFIER_FIELD, LoginBanners, PASSWORD_FIELD } from './step-parts';

/** Identifier, password and "Stay unlocked on this device". */
export function CredentialsStep({ flow }: { flow: LoginFlow }) {
  const { stayUnlocked, busy } = flow.state;
  const { locked } = flow;
  const disabled = busy || locked;
  return (
    <AuthLayout
      title="Sign in to your vault"
      subtitle="Your notes and files are decrypted only on this device."
      footer={
        <p>
          New to Vault? <Link to="/register">Create an account</Link>
        </p>
      }
    >
      <form className="form" onSubmit={flow.submitCredentials} noValidate aria-describedby={undefined}>
        <LoginBanners flow={flow} />
        <BoundFields
          fields={[
            { ...IDENTIFIER_FIELD, autoCapitalize: 'off', spellCheck: false, autoFocus: true },
            PASSWORD_FIELD,
          ]}
          values={flow.state}
          onEdit={flow.edit}
          disabled={disabled}
        />
        <div className="form__row">
          <Checkbox
            label="Stay unlocked on this device"
            description="Keeps the vault key in this browser so a reload doesn't ask for your password. Use only on a device you trust."
            checked={stayUnlocked}
            onChange={(e) => flow.setStayUnlocked(e.target.checked)}
            disabled={disabled}
          />
        </div>
        <Button
          type="submit"
          block
          size="lg"
          loading={busy}
          loadingLabel="Unlocking your vault..."
          disabled={locked}
        >
          Sign in
        </Button>
        <div className="form__links form__links--center">
          <Link to="/recovery">Forgot your password?</Link>
        </div>
      </form>
    </AuthLayout>
  );
}
