import { Button } from '../../../components/button';
import { LoadingPanel } from '../../../components/loading-panel';
import { formatDateTime } from '../../../lib/format';
import { adminActivityQuery, adminStatsQuery } from '../api/admin-api';
import { AdminLoadError } from '../components/admin-load-error';
import { AdminSection } from '../components/admin-section';
import { ActivityChart } from './activity-chart';
import { StatCards } from './stat-cards';

/** Overview: the stat cards, Refresh, 'Last updated', and the activity chart. */
export function OverviewTab() {
  const stats = adminStatsQuery.use();
  const activity = adminActivityQuery.use();
  const refreshing = stats.status === 'loading' || activity.status === 'loading';
  const refresh = () => {
    void stats.refetch();
    void activity.refetch();
  };

  return (
    <AdminSection
      id="admin-overview"
      title="Overview"
      actions={
        <>
          <p className="admin-muted" role="status">
            {stats.data ? `Last updated ${formatDateTime(stats.data.timestamp)}` : null}
          </p>
          <Button
            variant="secondary"
            size="sm"
            onClick={refresh}
            loading={refreshing}
            loadingLabel="Refreshing..."
          >
            Refresh
          </Button>
        </>
      }
    >
      {stats.status === 'error' ? (
        <AdminLoadError error={stats.error} onRetry={() => void stats.refetch()} />
      ) : null}
      {stats.data ? <StatCards stats={stats.data} /> : null}
      {!stats.data && stats.status !== 'error' ? <LoadingPanel text="Loading statistics..." /> : null}
      {activity.status === 'error' ? (
        <AdminLoadError error={activity.error} onRetry={() => void activity.refetch()} />
      ) : null}
      {activity.data ? <ActivityChart hours={activity.data.hours} /> : null}
      {!activity.data && activity.status !== 'error' ? <LoadingPanel text="Loading activity..." /> : null}
    </AdminSection>
  );
}
