import { Banner } from '../../../../components/banner';
import { BoundFields, type BoundField } from '../../../../components/bound-fields';
import { Button } from '../../../../components/button';
import { Checkbox } from '../../../../components/checkbox';
import { PasswordChecklist } from '../../../../components/password-checklist';
import { SecondFactorField, SecondFactorToggle } from '../../../../components/second-factor-field';
import { passwordChecks } from '../../../../lib/signup-validation';
import type { RecoveryField, RecoveryFlow, Verified } from '../../state/use-recovery-flow';
import { RECOVERY_TEXT } from '../../utils/recovery-messages';
import { StepBanners, StepLinks } from './step-parts';

const NEW_PASSWORD_FIELDS: BoundField<RecoveryField>[] = [
  {
    field: 'password',
    password: true,
    label: 'New password',
    name: 'newPassword',
    autoComplete: 'new-password',
    autoFocus: true,
  },
  {
    field: 'confirm',
    password: true,
    label: 'Confirm new password',
    name: 'confirmNewPassword',
    autoComplete: 'new-password',
  },
];

/**
 * The new password, after a verification. What happens to the vault is said before the user
 * confirms: kept (recovery key) or a new, empty vault key (the other ways). A current 2FA code
 * joins the form when the account asks for one.
 */
export function NewPasswordStep({ flow, verified }: { flow: RecoveryFlow; verified: Verified }) {
  const { password, confirm, understood, material, needsCode, useBackup, totp, backupCode, busy } =
    flow.state;
  const keeps = Boolean(verified.recovery);
  return (
    <form className="form" onSubmit={flow.submitNewPassword} noValidate>
      <Banner tone="success" role="status">
        {verified.message || RECOVERY_TEXT.verified}
      </Banner>
      {keeps ? (
        <Banner tone="info" title="Your vault comes back as it is">
          Your recovery key opened your vault key. Choose a new password: your notes and files stay readable.
        </Banner>
      ) : (
        <Banner tone="warning" title="A new vault key will be created">
          Without your recovery key, nobody can open your current vault key: it is sealed with your old
          password. Setting a new password creates a new, empty vault key. Your existing notes and files stay
          stored but locked until you enter your old password, which then unlocks them and moves them to the
          new key. If you never remember it, they cannot be recovered.
        </Banner>
      )}
      {needsCode ? null : <StepBanners flow={flow} />}
      <BoundFields
        fields={NEW_PASSWORD_FIELDS}
        values={flow.state}
        onEdit={flow.edit}
        disabled={busy || material !== null}
      />
      <PasswordChecklist checks={passwordChecks(password, confirm)} />
      {keeps ? null : (
        <Checkbox
          label="I understand that my existing notes and files stay locked until I enter my old password."
          checked={understood}
          onChange={(e) => flow.setUnderstood(e.target.checked)}
          disabled={busy || material !== null}
        />
      )}
      {needsCode ? (
        <>
          <StepBanners flow={flow} />
          <SecondFactorField
            useBackup={useBackup}
            code={totp}
            backupCode={backupCode}
            onCode={(value) => flow.edit('totp', value)}
            onBackupCode={(value) => flow.edit('backupCode', value)}
            disabled={busy}
            codeName="totp"
          />
          <SecondFactorToggle useBackup={useBackup} onToggle={flow.toggleBackup} disabled={busy} />
        </>
      ) : null}
      <Button type="submit" block loading={busy} loadingLabel="Setting your password...">
        {keeps ? 'Set new password' : 'Set new password and create a new vault key'}
      </Button>
      <StepLinks flow={flow} />
    </form>
  );
}
