import { Link } from 'react-router-dom';
import { AuthLayout } from '../../../components/auth-layout';
import { Banner, ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { ShieldCheckIcon } from '../../../components/icons';
import { TextField } from '../../../components/input';
import { PasswordInput } from '../../../components/password-input';
import { ADMIN_MESSAGES } from '@vault/contracts';
import { CODE_LENGTH } from '../../../lib/two-factor';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ADMIN_LOGIN_TEXT, useAdminLogin, type AdminLoginFlow } from './use-admin-login';

export const MONITORING_NOTICE =
  'This area is restricted to administrators and monitored. Every sign-in and every admin action is recorded.';

/** /admin/login (spec section 2 "Admin login screen"). */
export function AdminLoginPage() {
  useDocumentTitle('Admin sign-in');
  const flow = useAdminLogin();
  const locked = flow.lockedUntil !== null;
  const disabled = flow.busy || locked;
  return (
    <AuthLayout
      title="Admin sign-in"
      subtitle="Vault administration"
      footer={<Link to="/vault">Back to the app</Link>}
    >
      <form className="form" onSubmit={(e) => void flow.submit(e)} noValidate aria-label="Admin sign-in">
        <Banner tone="info" role="none" icon={<ShieldCheckIcon />} title="Security monitoring">
          {MONITORING_NOTICE}
        </Banner>
        <LoginBanners flow={flow} />
        <TextField
          label="Email or username"
          name="identifier"
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          value={flow.identifier}
          onChange={(e) => flow.setIdentifier(e.target.value)}
          disabled={disabled}
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={flow.password}
          onChange={(e) => flow.setPassword(e.target.value)}
          disabled={disabled}
        />
        {flow.needsCode ? (
          <TextField
            label="2FA code"
            name="totpCode"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="one-time-code"
            placeholder="123456"
            maxLength={CODE_LENGTH}
            autoFocus
            className="field--code"
            value={flow.code}
            onChange={(e) => flow.setCode(e.target.value)}
            disabled={disabled}
          />
        ) : null}
        <Button
          type="submit"
          block
          size="lg"
          loading={flow.busy}
          loadingLabel="Signing in..."
          disabled={locked}
        >
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}

function LoginBanners({ flow }: { flow: AdminLoginFlow }) {
  const { error, notice, needsCode, lockedUntil } = flow;
  if (lockedUntil !== null) {
    const at = new Date(lockedUntil).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return (
      <Banner tone="danger" role="alert" title={ADMIN_LOGIN_TEXT.lockedTitle}>
        Too many failed sign-ins. Try again after {at}.
      </Banner>
    );
  }
  return (
    <>
      {notice && !error ? (
        <Banner tone="warning" role="status">
          {notice}
        </Banner>
      ) : null}
      {needsCode && !error ? (
        <Banner tone="info" role="status">
          {ADMIN_MESSAGES.enterCode}
        </Banner>
      ) : null}
      {error?.kind === '2fa-required' ? (
        <Banner tone="danger" role="alert">
          <p>{error.message}</p>
          <p>
            <Link to="/settings?tab=security">Turn on two-factor authentication in Settings</Link>
          </p>
        </Banner>
      ) : null}
      {error?.kind === 'message' ? (
        <ErrorBanner
          error={
            error.detail ? (
              <>
                <p>{error.message}</p>
                <p>{error.detail}</p>
              </>
            ) : (
              error.message
            )
          }
        />
      ) : null}
    </>
  );
}
