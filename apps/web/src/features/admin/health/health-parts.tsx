import type { SystemHealth } from '@vault/contracts';
import type { ReactNode } from 'react';
import { Banner } from '../../../components/banner';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { ColumnHeads } from '../components/admin-section';
import { AdminTable } from '../tables/admin-table';

/** clamd's signatures older than this are worth a warning. */
export const SIGNATURE_MAX_AGE_HOURS = 48;

type Memory = SystemHealth['memory'];

/** "2d 3h", "4h 12m", "35m", "12s". */
export function formatUptime(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'Unknown';
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m` : `${s}s`;
}

export function formatMemory(memory: Memory | null): string {
  if (!memory) return 'Unknown';
  return `${formatBytes(memory.rssBytes)} RSS, heap ${formatBytes(memory.heapUsedBytes)} of ${formatBytes(memory.heapTotalBytes)}`;
}

const STATUS_TEXT: Record<string, string> = {
  up: 'Up',
  down: 'Down',
  ok: 'Healthy',
  degraded: 'Degraded',
  'not-configured': 'Not configured',
};

/** A status as text and colour (never colour alone). */
export function StatusPill({ status }: { status: string }) {
  const tone = status === 'up' || status === 'ok' ? 'good' : status === 'not-configured' ? 'muted' : 'bad';
  return <span className={`admin-pill admin-pill--${tone}`}>{STATUS_TEXT[status] ?? status}</span>;
}

export function OverallStatus({ health }: { health: SystemHealth }) {
  return (
    <dl className="panel admin-facts">
      <Fact label="Overall status" value={<StatusPill status={health.status} />} />
      <Fact label="Environment" value={health.environment} />
      <Fact label="Node.js" value={health.nodeVersion} />
      <Fact label="Admin service uptime" value={formatUptime(health.uptime)} />
      <Fact label="Admin service memory" value={formatMemory(health.memory)} />
      <Fact label="Checked" value={formatDateTime(health.timestamp)} />
    </dl>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="admin-fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function DataStores({ health }: { health: SystemHealth }) {
  const rows = [
    { name: 'Database', ...health.database },
    { name: 'Redis', ...health.redis },
  ];
  return (
    <AdminTable
      label="Database and Redis"
      head={<ColumnHeads names={['Store', 'Status', 'Latency', 'Version']} />}
    >
      {rows.map((r) => (
        <tr key={r.name}>
          <th scope="row">{r.name}</th>
          <td>
            <StatusPill status={r.status} />
          </td>
          <td>{r.latencyMs === null ? 'Unknown' : `${Math.round(r.latencyMs)} ms`}</td>
          <td>{r.version ?? 'Unknown'}</td>
        </tr>
      ))}
    </AdminTable>
  );
}

export function Services({ services }: { services: SystemHealth['services'] }) {
  return (
    <AdminTable
      label="Services"
      head={<ColumnHeads names={['Service', 'Status', 'Version', 'Uptime', 'Memory']} />}
    >
      {services.map((s) => (
        <tr key={s.name}>
          <th scope="row">{s.name}</th>
          <td>
            <StatusPill status={s.status} />
            {s.error ? <span className="admin-table__muted"> {s.error}</span> : null}
          </td>
          <td>{s.version ?? 'Unknown'}</td>
          <td className="admin-table__nowrap">{formatUptime(s.uptimeSeconds)}</td>
          <td>{formatMemory(s.memory)}</td>
        </tr>
      ))}
    </AdminTable>
  );
}

export function Queues({ health }: { health: SystemHealth }) {
  const cols = ['waiting', 'active', 'delayed', 'failed'] as const;
  return (
    <AdminTable
      label="Queues"
      head={
        <>
          <th scope="col">Queue</th>
          {cols.map((c) => (
            <th key={c} scope="col" className="admin-num">
              {c[0]!.toUpperCase() + c.slice(1)}
            </th>
          ))}
        </>
      }
    >
      {[...health.queues, { name: 'All queues', ...health.queue }].map((q) => (
        <tr key={q.name}>
          <th scope="row">{q.name}</th>
          {cols.map((c) => (
            <td key={c} className="admin-num">
              {q[c]}
            </td>
          ))}
        </tr>
      ))}
    </AdminTable>
  );
}

export function StorageDrivers({ storage }: { storage: SystemHealth['storage'] }) {
  return (
    <AdminTable label="Storage drivers" head={<ColumnHeads names={['Driver', 'Status', 'Default']} />}>
      {storage.map((d) => (
        <tr key={d.driver}>
          <th scope="row">{d.driver}</th>
          <td>
            <StatusPill status={d.status} />
            {d.error ? <span className="admin-table__muted"> {d.error}</span> : null}
          </td>
          <td>{d.default ? 'Yes' : 'No'}</td>
        </tr>
      ))}
    </AdminTable>
  );
}

export function Clamd({ clamd }: { clamd: SystemHealth['clamd'] }) {
  const age = clamd.signatureAgeHours;
  const stale = age !== null && age > SIGNATURE_MAX_AGE_HOURS;
  return (
    <>
      {stale ? (
        <Banner tone="warning" role="status" title="Virus signatures are out of date">
          clamd's signatures are {Math.round(age)} hours old (more than {SIGNATURE_MAX_AGE_HOURS} hours).
        </Banner>
      ) : null}
      <dl className="panel admin-facts">
        <Fact label="Scanner (clamd)" value={<StatusPill status={clamd.status} />} />
        <Fact label="Version" value={clamd.version ?? 'Unknown'} />
        <Fact label="Signatures" value={clamd.signatureVersion ?? 'Unknown'} />
        <Fact
          label="Signature age"
          value={
            age === null ? (
              'Unknown'
            ) : (
              <span className={stale ? 'admin-warn' : undefined}>
                {Math.round(age)} h{clamd.signatureDate ? ` (${formatDateTime(clamd.signatureDate)})` : ''}
              </span>
            )
          }
        />
      </dl>
    </>
  );
}
