import type { ReactNode } from 'react';
import { useRuntimeConfig } from '../../../lib/config-context';
import { useSessionStore } from '../../../lib/session/session-context';
import { useSignOut } from '../../../lib/session/use-sign-out';
import { useInactivity } from '../hooks/use-inactivity';
import { InactivityModal } from './inactivity-modal';

export function timeoutNotice(timeoutMs: number): string {
  const minutes = Math.round(timeoutMs / 60000);
  const span =
    minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(timeoutMs / 1000)} seconds`;
  return `You were signed out after ${span} of inactivity.`;
}

/**
 * Wraps everything a signed-in user sees: the inactivity timer from the runtime config, its
 * warning dialog, and the timeout (state and keys cleared, the server session ended, /login).
 */
export function SignedInSession({ children }: { children: ReactNode }) {
  const config = useRuntimeConfig();
  const signOut = useSignOut();
  const { storage } = useSessionStore();
  const inactivity = useInactivity({
    enabled: true,
    timeoutMs: config.inactivityTimeoutMs,
    warningMs: config.inactivityWarningMs,
    storage,
    onTimeout: () => void signOut(timeoutNotice(config.inactivityTimeoutMs)),
  });
  return (
    <>
      {children}
      <InactivityModal
        open={inactivity.warning}
        remainingSeconds={inactivity.remainingSeconds}
        onStay={inactivity.stayLoggedIn}
        onLogout={() => void signOut()}
      />
    </>
  );
}
