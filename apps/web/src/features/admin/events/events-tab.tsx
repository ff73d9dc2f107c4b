import type { AdminSecurityEvent } from '@vault/contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { LoadMore } from '../../../components/load-more';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download-file';
import { formatDateTime } from '../../../lib/format';
import { securityEventLabel } from '../../../lib/security-event-text';
import { useCursorList } from '../../../lib/use-cursor-list';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { describeUserAgent } from '../../../lib/user-agent';
import { useAdminApi } from '../api/admin-api';
import { AdminLoadError } from '../components/admin-load-error';
import { AdminSection } from '../components/admin-section';
import { AdminTable, SuccessNote } from '../tables/admin-table';
import { getSecurityEventsCsv, listSecurityEvents, NO_EVENT_FILTERS, type EventFilters } from './events-api';
import { EVENTS_USER_PARAM, EventsFiltersForm } from './events-filters';

/** Filters settle this long before the list is asked again (typing an id, picking a date). */
export const FILTER_DEBOUNCE_MS = 300;

const detailsText = (details: AdminSecurityEvent['event']['details']): string =>
  Object.entries(details)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ');

export const EXPORT_NOTE =
  'The file holds e-mail addresses and IP addresses (personal data): store and share it accordingly.';

const today = () => new Date().toISOString().slice(0, 10);

/** Security Events: filters, the newest first with 'Load more', and the CSV of the same filters. */
export function EventsTab() {
  const api = useAdminApi();
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<EventFilters>(() => ({
    ...NO_EVENT_FILTERS,
    userId: params.get(EVENTS_USER_PARAM) ?? '',
  }));
  const applied = useDebouncedValue(filters, FILTER_DEBOUNCE_MS);
  const list = useCursorList(JSON.stringify(applied), async (cursor) => {
    const page = await listSecurityEvents(api, applied, cursor);
    return { items: page.events, nextCursor: page.nextCursor };
  });
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    setSuccess(null);
    try {
      const csv = await getSecurityEventsCsv(api, filters);
      downloadFile(`security-events-${today()}.csv`, csv, { type: 'text/csv;charset=utf-8' });
      setSuccess('Security events exported');
    } catch (e) {
      setExportError(messageOf(e, 'Failed to export security events'));
    } finally {
      setExporting(false);
    }
  };

  let content;
  if (list.status === 'error') {
    content = <AdminLoadError error={list.error} onRetry={list.reload} />;
  } else if (list.status === 'loading') {
    content = <Spinner label="Loading security events" />;
  } else if (list.items.length === 0) {
    content = <p className="admin-table__muted">No security events match.</p>;
  } else {
    content = (
      <AdminTable
        label="Security events"
        head={
          <>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">User</th>
            <th scope="col">IP</th>
            <th scope="col">User agent</th>
            <th scope="col">Details</th>
          </>
        }
      >
        {list.items.map(({ id, userId, username, email, event }) => (
          <tr key={id}>
            <td className="admin-table__nowrap">
              <time dateTime={event.timestamp}>{formatDateTime(event.timestamp)}</time>
            </td>
            <td>{securityEventLabel(event.eventType)}</td>
            <td>{username ?? email ?? userId ?? 'Unknown account'}</td>
            <td>{event.ipAddress || 'Unknown'}</td>
            <td title={event.userAgent}>
              {event.userAgent ? describeUserAgent(event.userAgent) : 'Unknown'}
            </td>
            <td>{detailsText(event.details)}</td>
          </tr>
        ))}
      </AdminTable>
    );
  }

  return (
    <AdminSection id="admin-events" title="Security Events">
      <EventsFiltersForm value={filters} onChange={setFilters} />
      <div className="admin-actions">
        <Button variant="secondary" size="sm" onClick={() => setFilters(NO_EVENT_FILTERS)}>
          Clear filters
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void exportCsv()}
          loading={exporting}
          aria-describedby="admin-events-export-note"
        >
          Export CSV
        </Button>
        <p id="admin-events-export-note" className="admin-muted">
          {EXPORT_NOTE}
        </p>
      </div>
      <SuccessNote message={success} />
      <ErrorBanner error={exportError} />
      {content}
      {list.status === 'ready' ? (
        <LoadMore list={list} failText="Failed to load more events" className="admin-pager" />
      ) : null}
    </AdminSection>
  );
}
