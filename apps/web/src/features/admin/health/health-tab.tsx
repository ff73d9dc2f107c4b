import type { ReactNode } from 'react';
import { Button } from '../../../components/button';
import { LoadingPanel } from '../../../components/loading-panel';
import { systemHealthQuery } from '../api/admin-api';
import { AdminLoadError } from '../components/admin-load-error';
import { AdminSection } from '../components/admin-section';
import { FailedScans } from './failed-scans';
import { Clamd, DataStores, OverallStatus, Queues, Services, StorageDrivers } from './health-parts';

/** System Health: the stack's status, the scanner, and the failed scans. */
export function HealthTab() {
  const health = systemHealthQuery.use();
  const data = health.data;
  return (
    <AdminSection
      id="admin-health"
      title="System Health"
      actions={
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void health.refetch()}
          loading={health.status === 'loading'}
          loadingLabel="Refreshing..."
        >
          Refresh
        </Button>
      }
    >
      {health.status === 'error' ? (
        <AdminLoadError error={health.error} onRetry={() => void health.refetch()} />
      ) : null}
      {!data && health.status !== 'error' ? <LoadingPanel text="Checking the system..." /> : null}
      {data ? (
        <>
          <OverallStatus health={data} />
          <Part title="Database and Redis">
            <DataStores health={data} />
          </Part>
          <Part title="Services">
            <Services services={data.services} />
          </Part>
          <Part title="Queues">
            <Queues health={data} />
          </Part>
          <Part title="Storage">
            <StorageDrivers storage={data.storage} />
          </Part>
          <Part title="Malware scanner">
            <Clamd clamd={data.clamd} />
          </Part>
        </>
      ) : null}
      <FailedScans />
    </AdminSection>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="admin-subsection">
      <h3 className="admin-subsection__title">{title}</h3>
      {children}
    </div>
  );
}
