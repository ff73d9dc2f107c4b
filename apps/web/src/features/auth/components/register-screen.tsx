import type { AuthResponse } from '@vault/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AuthLayout } from '../../../components/auth-layout';
import { ErrorBanner } from '../../../components/banner';
import { BoundFields, type BoundField } from '../../../components/bound-fields';
import { Button } from '../../../components/button';
import { PasswordChecklist } from '../../../components/password-checklist';
import { useApiClient } from '../../../lib/api-context';
import { useSessionStore } from '../../../lib/session/session-context';
import { passwordChecks, validateSignup, type SignupFields } from '../../../lib/signup-validation';
import { useCrypto } from '../../../workers/crypto-context';
import {
  isRecoveryCryptoService,
  type NewAccountMaterial,
  type NewAccountWithRecovery,
} from '../../../workers/crypto-service';
import { signup } from '../api/signup';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { RecoveryKitStep } from './recovery-kit-step';

export const REGISTER_MESSAGES = { failed: 'Registration failed' } as const;

const EMPTY: SignupFields = { username: '', email: '', phoneNumber: '', password: '', confirmPassword: '' };

const SIGNUP_FIELDS: BoundField<keyof SignupFields>[] = [
  {
    field: 'username',
    label: 'Username',
    name: 'username',
    autoComplete: 'username',
    autoCapitalize: 'off',
    spellCheck: false,
    autoFocus: true,
  },
  { field: 'email', label: 'Email', name: 'email', type: 'email', autoComplete: 'email' },
  {
    field: 'phoneNumber',
    label: 'Phone number',
    name: 'phoneNumber',
    type: 'tel',
    autoComplete: 'tel',
    placeholder: '+1 555 123 4567',
  },
  {
    field: 'password',
    password: true,
    label: 'Password',
    name: 'password',
    autoComplete: 'new-password',
    'aria-describedby': 'password-checklist password-note',
  },
  {
    field: 'confirmPassword',
    password: true,
    label: 'Confirm password',
    name: 'confirmPassword',
    autoComplete: 'new-password',
  },
];

/** A created account waiting on the recovery kit step before the vault opens. */
interface PendingKit {
  answer: AuthResponse;
  vaultKey: CryptoKey;
  email: string;
  recoveryKeyText: string;
}

/**
 * The sign-up screen (spec sections 2, 5, 8): the spec's validations in order, then a fresh vault
 * key wrapped under the password in the worker (createAccount), then the sign-up call with the
 * authKey and wrapped key only. The worker also makes a recovery key (docs/crypto-protocol.md "Recovery key"),
 * registered with the account and shown once afterwards as the recovery kit.
 */
export function RegisterScreen() {
  const api = useApiClient();
  const crypto = useCrypto();
  const session = useSessionStore();
  const { finish } = useCompleteSignIn();
  const [fields, setFields] = useState<SignupFields>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [kit, setKit] = useState<PendingKit | null>(null);

  const set = (name: keyof SignupFields, value: string) => setFields((f) => ({ ...f, [name]: value }));
  const checks = passwordChecks(fields.password, fields.confirmPassword);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = validateSignup(fields);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await session.settled();
      const material: NewAccountMaterial & Partial<Pick<NewAccountWithRecovery, 'recovery'>> =
        isRecoveryCryptoService(crypto)
          ? await crypto.createAccountWithRecovery(fields.password)
          : await crypto.createAccount(fields.password);
      const kitKey = material.recovery?.recoveryKeyText;
      const recovery = material.recovery
        ? {
            recoveryAuth: material.recovery.recoveryAuth,
            recoveryWrappedVaultKey: material.recovery.recoveryWrappedVaultKey,
          }
        : undefined;
      const answer = await signup(api, {
        username: fields.username.trim(),
        email: fields.email.trim(),
        phoneNumber: fields.phoneNumber.trim(),
        authKey: material.authKey,
        salt: material.salt,
        kdfParams: material.kdfParams,
        wrappedVaultKey: material.wrappedVaultKey,
        ...(recovery ? { recovery } : {}),
      });
      if (kitKey) {
        // Signing in now would leave this signed-out page at once: the kit comes first.
        setKit({
          answer,
          vaultKey: material.vaultKey,
          email: answer.user.email,
          recoveryKeyText: kitKey,
        });
        setBusy(false);
        return;
      }
      await finish(answer, material.vaultKey, false);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : REGISTER_MESSAGES.failed);
      setBusy(false);
    }
  };

  if (kit) {
    return (
      <AuthLayout title="Save your recovery key">
        <RecoveryKitStep
          email={kit.email}
          recoveryKeyText={kit.recoveryKeyText}
          busy={busy}
          onDone={() => {
            setBusy(true);
            void finish(kit.answer, kit.vaultKey, false);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Create your vault"
      subtitle="Everything you keep is encrypted on this device before it is saved."
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <ErrorBanner error={error} />
        <BoundFields fields={SIGNUP_FIELDS} values={fields} onEdit={set} disabled={busy} />
        <PasswordChecklist checks={checks} id="password-checklist" />
        <div className="note" id="password-note">
          <p className="note__title">About your password</p>
          <p>
            Use at least 8 characters with an uppercase letter, a lowercase letter and a number. Your password
            encrypts your vault: it never leaves this device, so nobody, not even the server, can read your
            notes, and nobody can reset it for you. Choose one you will remember.
          </p>
        </div>
        <Button type="submit" block size="lg" loading={busy} loadingLabel="Creating your vault...">
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}
