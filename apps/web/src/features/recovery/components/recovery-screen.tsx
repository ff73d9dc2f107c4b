import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AuthLayout } from '../../../components/auth-layout';
import { Banner } from '../../../components/banner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRecoveryFlow, type RecoveryFlow, type RecoveryStep } from '../state/use-recovery-flow';
import { ChooseStep } from './recovery-steps/choose-step';
import { EmailCodeStep } from './recovery-steps/email-code-step';
import { KeyStep } from './recovery-steps/key-step';
import { NewPasswordStep } from './recovery-steps/new-password-step';
import { QuestionsStep } from './recovery-steps/questions-step';
import { SuccessStep } from './recovery-steps/success-step';

const TITLES: Record<RecoveryStep, string> = {
  choose: 'Recover your account',
  'verify-email': 'Check your email',
  'verify-questions': 'Answer your security questions',
  'verify-key': 'Enter your recovery key',
  'new-password': 'Set a new password',
  success: 'Account recovered',
};

/** The current step's component (each step's first field takes the focus). */
function StepBody({ flow }: { flow: RecoveryFlow }): ReactNode {
  const { step, questions, verified, done } = flow.state;
  if (step === 'choose') return <ChooseStep flow={flow} />;
  if (step === 'verify-email') return <EmailCodeStep flow={flow} />;
  if (step === 'verify-questions' && questions) return <QuestionsStep flow={flow} questions={questions} />;
  if (step === 'verify-key') return <KeyStep flow={flow} />;
  if (step === 'new-password' && verified) return <NewPasswordStep flow={flow} verified={verified} />;
  if (step === 'success' && done) return <SuccessStep flow={flow} done={done} />;
  return null;
}

/**
 * /recovery (spec "Recovery screen"): the flow of state/use-recovery-flow.ts, one component per step
 * (components/recovery-steps). Only the recovery key brings the old vault key back; the other two
 * ways reset access and make a new vault key, which the new-password step says before the user
 * confirms.
 */
export function RecoveryScreen() {
  const flow = useRecoveryFlow();
  // Each step's first field takes the focus (autoFocus), so keyboard and screen-reader users follow along.
  useDocumentTitle('Account recovery');
  const { step } = flow.state;

  return (
    <AuthLayout
      title={TITLES[step]}
      footer={
        step === 'success' ? undefined : (
          <p>
            Remembered your password? <Link to="/login">Back to sign in</Link>
          </p>
        )
      }
    >
      {flow.supported ? (
        <StepBody flow={flow} />
      ) : (
        <Banner tone="danger">This browser cannot run account recovery.</Banner>
      )}
    </AuthLayout>
  );
}
