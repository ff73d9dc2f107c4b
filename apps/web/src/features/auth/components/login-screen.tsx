import { useLoginFlow } from '../state/use-login-flow';
import { CodeStep } from './login-steps/code-step';
import { CredentialsStep } from './login-steps/credentials-step';
import { EmergencyStep } from './login-steps/emergency-step';

export { LOGIN_MESSAGES } from '../state/use-login-flow';

/**
 * The sign-in screen (spec sections 2, 4, 5, 8): the flow of state/use-login-flow.ts (credentials,
 * the 2FA code step, the emergency step, the lockout), one component per step (components/login-steps).
 */
export function LoginScreen() {
  const flow = useLoginFlow();
  if (flow.state.step === 'code') return <CodeStep flow={flow} />;
  if (flow.state.step === 'emergency') return <EmergencyStep flow={flow} />;
  return <CredentialsStep flow={flow} />;
}
