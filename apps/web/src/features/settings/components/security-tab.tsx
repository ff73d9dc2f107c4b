import { Banner } from '../../../components/banner';
import { ChangePasswordSection } from './change-password-section';
import { RecoveryKeySection } from './recovery-key-section';
import { SecurityActivitySection } from './security-activity-section';
import { SecurityQuestionsSection } from './security-questions-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSections } from './two-factor-section';
import './settings.css';

/** Security: password, two-step verification and backup codes, recovery options, devices. */
export function SecurityTab({ recovery }: { recovery: boolean }) {
  return (
    <div className="settings-stack">
      {recovery ? (
        <Banner tone="info" title="You recovered access to your account">
          Set a new password and review your two-step verification below.
        </Banner>
      ) : null}
      <ChangePasswordSection autoFocus={recovery} />
      <TwoFactorSections />
      <SecurityQuestionsSection />
      <RecoveryKeySection />
      <SessionsSection />
      <SecurityActivitySection />
    </div>
  );
}
