import { RecoveryScreen } from '../../features/recovery/components/recovery-screen';

/** /recovery (signed out only): e-mail code, security questions or recovery key, then a new password. */
export function RecoveryPage() {
  return <RecoveryScreen />;
}
