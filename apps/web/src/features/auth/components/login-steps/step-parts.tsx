import { useEffect, useRef, type ReactNode } from 'react';
import { Banner, ErrorBanner } from '../../../../components/banner';
import type { BoundField } from '../../../../components/bound-fields';
import type { LoginFlow, LoginField } from '../../state/use-login-flow';
import { LockoutBanner } from '../lockout-banner';

/** Above every step's fields: the lockout, the notice of an ended session, the step's notice, the error. */
export function LoginBanners({ flow }: { flow: LoginFlow }) {
  const { step, info, error } = flow.state;
  const { locked, notice } = flow;
  return (
    <>
      {locked ? <LockoutBanner remainingSeconds={flow.lockoutSeconds} byAdmin={flow.lockedByAdmin} /> : null}
      {notice && step === 'credentials' && !locked ? (
        <Banner tone="warning" role="status">
          {notice}
        </Banner>
      ) : null}
      {info ? (
        <Banner tone={step === 'emergency' ? 'warning' : 'info'} role="status">
          {info}
        </Banner>
      ) : null}
      <ErrorBanner error={error} />
    </>
  );
}

/** A second step's (visually hidden) heading: it takes the focus as the step opens, so screen readers announce it. */
export function StepHeading({ children }: { children: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <h2 className="visually-hidden" tabIndex={-1} ref={headingRef}>
      {children}
    </h2>
  );
}

/** The identifier and password, as the credentials and emergency steps both ask for them. */
export const IDENTIFIER_FIELD: BoundField<LoginField> = {
  field: 'identifier',
  label: 'Username, email or phone',
  name: 'identifier',
  autoComplete: 'username',
};
export const PASSWORD_FIELD: BoundField<LoginField> = {
  field: 'password',
  password: true,
  label: 'Password',
  name: 'password',
  autoComplete: 'current-password',
};

/** A second step's way back: the step is forgotten and the credentials asked again. */
export function BackToSignIn({ flow }: { flow: LoginFlow }) {
  return (
    <button type="button" className="link-btn" onClick={flow.backToCredentials} disabled={flow.state.busy}>
      Back to sign in
    </button>
  );
}
