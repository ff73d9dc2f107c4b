import type { AdminActivity } from '@vault/contracts';
import { useId } from 'react';

type Hour = AdminActivity['hours'][number];

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 40 };

export const SERIES = [
  { key: 'signups', label: 'Sign-ups', className: 'admin-chart__line--signups' },
  { key: 'failedSignIns', label: 'Failed sign-ins', className: 'admin-chart__line--failed' },
] as const;

/** Totals per day (the screen-reader table and the summary), oldest first. */
export function dailyTotals(hours: readonly Hour[]) {
  const days = new Map<string, { day: string; signups: number; failedSignIns: number }>();
  for (const h of hours) {
    const day = h.hour.slice(0, 10);
    const row = days.get(day) ?? { day, signups: 0, failedSignIns: 0 };
    row.signups += h.signups;
    row.failedSignIns += h.failedSignIns;
    days.set(day, row);
  }
  return [...days.values()];
}

function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/**
 * Sign-ups and failed sign-ins per hour over 7 days, on UTC hours and days throughout (the server's
 * buckets; the caption says so) rather than a mix of UTC buckets and local labels: an SVG of our own (no chart library). The
 * picture is one labelled image with a one-line summary; the numbers behind it are in a visually
 * hidden table of daily totals for screen readers.
 */
export function ActivityChart({ hours }: { hours: readonly Hour[] }) {
  const id = useId();
  const days = dailyTotals(hours);
  const total = (key: 'signups' | 'failedSignIns') => hours.reduce((sum, h) => sum + h[key], 0);
  const max = Math.max(1, ...hours.map((h) => Math.max(h.signups, h.failedSignIns)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (hours.length > 1 ? (i / (hours.length - 1)) * plotW : plotW / 2);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const summary = `Last 7 days: ${total('signups')} sign-ups and ${total('failedSignIns')} failed sign-ins; at most ${max} in one hour.`;

  return (
    <figure className="panel admin-chart">
      <figcaption className="admin-chart__caption" id={`${id}-title`}>
        Activity per hour, last 7 days (UTC)
      </figcaption>
      <ul className="admin-chart__legend" aria-hidden="true">
        {SERIES.map((s) => (
          <li key={s.key}>
            <span className={`admin-chart__swatch ${s.className}`} /> {s.label}
          </li>
        ))}
      </ul>
      <div className="admin-chart__scroll" role="region" aria-label="Activity chart" tabIndex={0}>
        <svg
          className="admin-chart__svg"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
        >
          <desc id={`${id}-desc`}>{summary}</desc>
          {[0, 0.5, 1].map((f) => (
            <g key={f} className="admin-chart__grid">
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(max * f)} y2={y(max * f)} />
              <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end">
                {Math.round(max * f)}
              </text>
            </g>
          ))}
          {days.map((d) => {
            const i = hours.findIndex((h) => h.hour.startsWith(d.day));
            if (i < 0 || hours[i]!.hour.slice(11, 13) !== '00') return null;
            return (
              <text key={d.day} className="admin-chart__day" x={x(i)} y={HEIGHT - 8}>
                {dayLabel(d.day).split(',')[0]}
              </text>
            );
          })}
          {SERIES.map((s) => (
            <polyline
              key={s.key}
              className={`admin-chart__line ${s.className}`}
              points={hours.map((h, i) => `${x(i).toFixed(1)},${y(h[s.key]).toFixed(1)}`).join(' ')}
            />
          ))}
        </svg>
      </div>
      {/* Hidden through a wrapper: a table does not shrink to the class's 1 px and would widen the page. */}
      <div className="visually-hidden">
        <table>
          <caption>Sign-ups and failed sign-ins per day (UTC), last 7 days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Sign-ups</th>
              <th scope="col">Failed sign-ins</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{dayLabel(d.day)}</th>
                <td>{d.signups}</td>
                <td>{d.failedSignIns}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
