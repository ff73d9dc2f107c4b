import { ADMIN_LIMITS, ADMIN_MESSAGES, type AdminFailedScan } from '@vault/contracts';
import { useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/input';
import { LoadingPanel } from '../../../components/loading-panel';
import { messageOf } from '../../../lib/api-client';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useQueryCache } from '../../../lib/query';
import { failedScansQuery, rescanAll, retryScan, useAdminApi, useAdminSession } from '../api/admin-api';
import { AdminLoadError } from '../components/admin-load-error';
import { ColumnHeads } from '../components/admin-section';
import { AdminTable } from '../tables/admin-table';

const SCAN_COLUMNS = ['File', 'Size', 'Attempts', 'Reason', 'Failed'];

/** The failed malware scans: Retry per file, and 'Rescan all files' with a reason (scans:manage). */
export function FailedScans() {
  const api = useAdminApi();
  const cache = useQueryCache();
  const { can } = useAdminSession();
  const scans = failedScansQuery.use();
  const [note, setNote] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);
  const [rescanOpen, setRescanOpen] = useState(false);
  const manage = can('scans:manage');

  const retry = async (scan: AdminFailedScan) => {
    setRetrying(scan.fileId);
    setNote(null);
    try {
      await retryScan(api, scan.fileId);
      setNote({ tone: 'success', text: `Scan of file ${scan.fileId} queued again` });
      cache.invalidate(failedScansQuery.queryKey);
    } catch (error) {
      setNote({ tone: 'danger', text: messageOf(error, 'Failed to retry the scan') });
    } finally {
      setRetrying(null);
    }
  };

  return (
    <section className="admin-subsection" aria-labelledby="admin-scans-title">
      <div className="admin-section__head">
        <h3 id="admin-scans-title" className="admin-subsection__title">
          Failed scans{scans.data ? ` (${scans.data.total})` : ''}
        </h3>
        {manage ? (
          <Button variant="secondary" size="sm" onClick={() => setRescanOpen(true)}>
            Rescan all files
          </Button>
        ) : null}
      </div>
      {note ? (
        <Banner tone={note.tone} role={note.tone === 'danger' ? 'alert' : 'status'}>
          {note.text}
        </Banner>
      ) : null}
      {scans.status === 'error' ? (
        <AdminLoadError error={scans.error} onRetry={() => void scans.refetch()} />
      ) : null}
      {!scans.data && scans.status !== 'error' ? <LoadingPanel text="Loading failed scans..." /> : null}
      {scans.data && scans.data.scans.length === 0 ? <p className="admin-muted">No failed scans.</p> : null}
      {scans.data && scans.data.scans.length > 0 ? (
        <AdminTable
          label="Failed scans"
          head={<ColumnHeads names={manage ? [...SCAN_COLUMNS, 'Action'] : SCAN_COLUMNS} />}
        >
          {scans.data.scans.map((scan) => (
            <tr key={scan.fileId}>
              <th scope="row" className="admin-mono">
                {scan.fileId}
              </th>
              <td className="admin-table__nowrap">{formatBytes(scan.size)}</td>
              <td>{scan.attempts}</td>
              <td>{scan.failedReason}</td>
              <td className="admin-table__nowrap">
                {scan.failedAt ? formatDateTime(scan.failedAt) : 'Unknown'}
              </td>
              {manage ? (
                <td>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => void retry(scan)}
                    loading={retrying === scan.fileId}
                    aria-label={`Retry scan of file ${scan.fileId}`}
                  >
                    Retry
                  </Button>
                </td>
              ) : null}
            </tr>
          ))}
        </AdminTable>
      ) : null}
      {rescanOpen ? (
        <RescanDialog
          onClose={() => setRescanOpen(false)}
          onDone={(queued) => {
            setRescanOpen(false);
            setNote({ tone: 'success', text: `${queued} files queued for a new scan` });
            cache.invalidate(failedScansQuery.queryKey);
          }}
        />
      ) : null}
    </section>
  );
}

function RescanDialog({ onClose, onDone }: { onClose: () => void; onDone: (queued: number) => void }) {
  const api = useAdminApi();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    if (!reason.trim()) return setError(ADMIN_MESSAGES.reasonRequired);
    setBusy(true);
    setError(null);
    try {
      onDone((await rescanAll(api, reason.trim())).queued);
    } catch (failure) {
      setError(messageOf(failure, 'Failed to start the rescan'));
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open
      tone="primary"
      title="Rescan all files?"
      message="Every stored file is queued for a new malware scan. This can take a long time and loads the scanner."
      confirmLabel="Rescan all files"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      <TextField
        label="Reason"
        name="reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={ADMIN_LIMITS.reasonMax}
      />
    </ConfirmDialog>
  );
}
