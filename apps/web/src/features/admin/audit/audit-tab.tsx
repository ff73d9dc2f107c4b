import type { AuditEntryDto, AuditVerify } from '@vault/contracts';
import { useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { LoadMore } from '../../../components/load-more';
import { LoadingPanel } from '../../../components/loading-panel';
import { formatDateTime } from '../../../lib/format';
import { useCursorList } from '../../../lib/use-cursor-list';
import { getAudit, useAdminApi, verifyAudit } from '../api/admin-api';
import { ADMIN_LOAD_MESSAGES, AdminLoadError, adminErrorText } from '../components/admin-load-error';
import { AdminSection, ColumnHeads } from '../components/admin-section';
import { auditActionLabel } from '../labels/admin-labels';
import { AdminTable } from '../tables/admin-table';

function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** The admin audit log, newest first, 'Load more' (older entries), and 'Verify chain'. */
export function AuditTab() {
  const api = useAdminApi();
  const list = useCursorList<AuditEntryDto>('admin:audit', async (cursor) => {
    const page = await getAudit(api, cursor === null ? undefined : Number(cursor));
    return { items: page.entries, nextCursor: page.nextBefore === null ? null : String(page.nextBefore) };
  });
  const entries = list.items;
  const [verify, setVerify] = useState<{ busy: boolean; result?: AuditVerify; error?: unknown }>({
    busy: false,
  });

  const runVerify = async () => {
    setVerify({ busy: true });
    try {
      setVerify({ busy: false, result: await verifyAudit(api) });
    } catch (error) {
      setVerify({ busy: false, error });
    }
  };

  return (
    <AdminSection
      id="admin-audit"
      title="Audit log"
      actions={
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void runVerify()}
          loading={verify.busy}
          loadingLabel="Verifying..."
        >
          Verify chain
        </Button>
      }
    >
      <VerifyResult result={verify.result} error={verify.error} />
      {list.status === 'error' ? <AdminLoadError error={list.error} onRetry={list.reload} /> : null}
      {list.status === 'loading' ? <LoadingPanel text="Loading the audit log..." /> : null}
      {list.status === 'ready' && entries.length === 0 ? (
        <p className="admin-muted">No admin actions recorded yet.</p>
      ) : null}
      {entries.length > 0 ? (
        <AdminTable
          label="Audit log entries"
          head={<ColumnHeads names={['#', 'Time', 'Admin', 'Action', 'Target', 'Reason', 'IP', 'Details']} />}
        >
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{e.id}</td>
              <td className="admin-table__nowrap">{formatDateTime(e.createdAt)}</td>
              <td>{e.actorLabel}</td>
              <th scope="row" title={e.action}>
                {auditActionLabel(e.action)}
              </th>
              <td>
                {e.targetType}
                {e.targetId ? <span className="admin-table__muted admin-mono"> {e.targetId}</span> : null}
              </td>
              <td>{e.reason ?? ''}</td>
              <td className="admin-table__nowrap">{e.ip}</td>
              <td className="admin-table__muted">{detailsText(e.details)}</td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
      <LoadMore list={list} failText={ADMIN_LOAD_MESSAGES.failed} />
    </AdminSection>
  );
}

function VerifyResult({ result, error }: { result?: AuditVerify; error?: unknown }) {
  if (error) {
    return (
      <Banner tone="danger" role="alert" title="Could not verify the audit log">
        {adminErrorText(error)}
      </Banner>
    );
  }
  if (!result) return null;
  if (result.ok) {
    return (
      <Banner tone="success" role="status" title="Audit chain intact">
        {result.checked} entries checked; every hash and link holds.
      </Banner>
    );
  }
  return (
    <Banner tone="danger" role="alert" title="Audit chain broken">
      {result.firstBroken
        ? `The first broken entry is #${result.firstBroken.id}: ${result.firstBroken.problem}.`
        : 'An entry does not hold.'}{' '}
      {result.checked} entries checked.
    </Banner>
  );
}
