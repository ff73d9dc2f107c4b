import { Link } from 'react-router-dom';
import { AuthLayout } from '../../components/auth-layout';
import { Banner } from '../../components/banner';
import { ButtonLink } from '../../components/button';
import { LockIcon } from '../../components/icons';
import { useDocumentTitle } from '../../lib/use-document-title';

/** /admin/login: the admin sign-in arrives with the admin milestone. */
export function AdminLoginPage() {
  useDocumentTitle('Admin sign-in');
  return (
    <AuthLayout title="Admin sign-in" footer={<Link to="/vault">Back to the app</Link>}>
      <div className="form">
        <Banner tone="info" title="The admin console is not available yet">
          Administrator sign-in arrives in a later release.
        </Banner>
      </div>
    </AuthLayout>
  );
}

/**
 * /admin behind the admin gate (spec section 2). No admin session exists before the admin
 * milestone, so every visitor sees 'Access Denied'.
 */
export function AdminGate() {
  useDocumentTitle('Access Denied');
  return (
    <div className="gate">
      <div className="gate__card">
        <span className="gate__icon" aria-hidden="true">
          <LockIcon width={28} height={28} />
        </span>
        <h1 className="gate__title">Access Denied</h1>
        <p>You need admin privileges to access this page.</p>
        <ButtonLink to="/admin/login">Admin Login</ButtonLink>
      </div>
    </div>
  );
}
