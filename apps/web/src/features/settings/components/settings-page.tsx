import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DatabaseIcon, ShieldCheckIcon, UserIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Tabs } from '../../../components/tabs';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccountTab } from './account-tab';
import { DataTab } from './data-tab';
import { SecurityTab } from './security-tab';

export const SETTINGS_TABS = [
  { id: 'security', label: 'Security', icon: <ShieldCheckIcon width={18} height={18} /> },
  { id: 'data', label: 'Data & Privacy', icon: <DatabaseIcon width={18} height={18} /> },
  { id: 'account', label: 'Account', icon: <UserIcon width={18} height={18} /> },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]['id'];

export function parseSettingsTab(value: string | null): SettingsTab {
  return SETTINGS_TABS.some((t) => t.id === value) ? (value as SettingsTab) : 'security';
}

/**
 * /settings with `?tab=security|data|account` (and `recovery=true` after an account recovery).
 * `dataSections` (the notes' export and import, given by the app: app/routes/settings.tsx) lead the
 * Data & Privacy tab; they are rendered only while that tab is shown.
 */
export function SettingsPage({ dataSections }: { dataSections?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const tab = parseSettingsTab(params.get('tab'));
  const recovery = params.get('recovery') === 'true';
  useDocumentTitle('Settings');

  return (
    <div className="page">
      <PageHeader title="Settings" description="Security, data and account details." />
      <Tabs
        label="Settings sections"
        idPrefix="settings"
        tabs={SETTINGS_TABS}
        value={tab}
        onChange={(id) => {
          const next = new URLSearchParams(params);
          next.set('tab', id);
          if (id !== 'security') next.delete('recovery');
          setParams(next, { replace: true });
        }}
      >
        {tab === 'security' ? <SecurityTab recovery={recovery} /> : null}
        {tab === 'data' ? <DataTab>{dataSections}</DataTab> : null}
        {tab === 'account' ? <AccountTab /> : null}
      </Tabs>
    </div>
  );
}
