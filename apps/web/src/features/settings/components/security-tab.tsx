import { Banner } from '../../../components/banner';
import { SettingsSection } from './settings-section';

const LATER = 'Coming in a later release';

export function SecurityTab({ recovery }: { recovery: boolean }) {
  return (
    <div className="settings-stack">
      {recovery ? (
        <Banner tone="info" title="You recovered access to your account">
          Set a new password and review your two-step verification below.
        </Banner>
      ) : null}
      <SettingsSection
        title="Change password"
        upcoming={LATER}
        description="Your vault key is re-wrapped under the new password on this device; your notes and files are not re-encrypted, and your other sessions are signed out."
      />
      <SettingsSection
        title="Two-step verification"
        upcoming={LATER}
        description="Ask for a 6-digit code from an authenticator app when you sign in."
      />
      <SettingsSection
        title="Backup codes"
        upcoming={LATER}
        description="Single-use codes (XXXX-XXXX) for signing in when your authenticator app is not at hand."
      />
      <SettingsSection
        title="Security questions"
        upcoming={LATER}
        description="Three questions that let you regain access to your account. Your answers are hashed on this device and never sent in plain text."
      />
      <SettingsSection
        title="Recovery key"
        upcoming={LATER}
        description="The only way to get your data back if you forget your password: a key you download and keep somewhere safe."
      />
    </div>
  );
}
