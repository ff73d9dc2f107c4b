import { useEffect, useRef } from 'react';
import { Banner } from '../../../../components/banner';
import type { LoginFlow } from '../../state/use-login-flow';
import { LockoutBanner } from '../lockout-banner';

/** Above every step's fields: the lockout, the notice of an ended session, the step's notice, the error. */
export function LoginBanners({ flow }: { flow: LoginFlow }) {
  const { step, info, error } = flow.state;
  const { locked, notice } = flow;
  return (
    <>
      {locked ? <LockoutBanner remainingSeconds={flow.lockoutSeconds} /> : null}
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
      {error ? <Banner tone="danger">{error}</Banner> : null}
    </>
  );
}

/** A second step's (visually hidden) heading: it takes the focus as the step opens, so screen readers announce it. */
export function useStepHeading() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return headingRef;
}
