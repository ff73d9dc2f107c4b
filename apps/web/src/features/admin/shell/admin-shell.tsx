import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/button';
import { LogoMark, SignOutIcon } from '../../../components/icons';
import { Tabs } from '../../../components/tabs';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ADMIN_TABS } from '../admin-tabs';
import { useAdminSession } from '../api/admin-api';
import { InsufficientPermissions } from './gate-panels';
import { IdleCountdown } from './idle-countdown';
import '../admin.css';

const ROLE_LABELS: Record<string, string> = { admin: 'Admin', super_admin: 'Super admin', user: 'User' };

/**
 * /admin once the gate let the admin in: the header (who, role, idle countdown, Sign out) and the
 * tabs the admin's permissions allow, the open one in `?tab=`.
 */
export function AdminShell() {
  const { admin, can, signOut } = useAdminSession();
  const [params, setParams] = useSearchParams();
  useDocumentTitle('Admin Console');
  const tabs = ADMIN_TABS.filter((tab) => can(tab.permission));
  const current = tabs.find((tab) => tab.id === params.get('tab')) ?? tabs[0];

  return (
    <div className="admin">
      <header className="admin__header">
        <div className="admin__brand">
          <LogoMark width={28} height={28} aria-hidden="true" />
          <h1 className="admin__title">Admin Console</h1>
        </div>
        <div className="admin__who">
          <p className="admin__name">
            <span className="visually-hidden">Signed in as </span>
            {admin.username}
            <span className="admin__role">{ROLE_LABELS[admin.role] ?? admin.role}</span>
          </p>
          <IdleCountdown />
        </div>
        <div className="admin__actions">
          <Link to="/vault" className="admin__back">
            Back to the app
          </Link>
          <Button variant="secondary" size="sm" icon={<SignOutIcon />} onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
      </header>
      <main className="admin__main">
        {current ? (
          <Tabs
            label="Admin sections"
            idPrefix="admin"
            tabs={tabs}
            value={current.id}
            onChange={(id) => setParams({ tab: id }, { replace: true })}
          >
            <current.Panel key={current.id} />
          </Tabs>
        ) : (
          <InsufficientPermissions page={false} />
        )}
      </main>
    </div>
  );
}
