import { Link } from 'react-router-dom';
import { Banner } from '../../components/banner';
import { ButtonLink } from '../../components/button';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { useDocumentTitle } from '../../lib/use-document-title';

/** /recovery: the recovery flows (recovery key, e-mail code, security questions) arrive in a later milestone. */
export function RecoveryPage() {
  useDocumentTitle('Account recovery');
  return (
    <AuthLayout title="Recover your account" footer={<Link to="/login">Back to sign in</Link>}>
      <div className="form">
        <Banner tone="info" title="Account recovery is not available yet">
          Recovery with your recovery key, an e-mail code or security questions arrives in a later release.
        </Banner>
        <p className="auth__lead">
          Your password encrypts your vault, so nobody can read or reset your data without it. If you still
          know it, sign in.
        </p>
        <ButtonLink to="/login" block variant="secondary">
          Back to sign in
        </ButtonLink>
      </div>
    </AuthLayout>
  );
}
