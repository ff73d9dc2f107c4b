import type { AdminStats } from '@vault/contracts';

/** The six cards of spec section 2 "Admin dashboard", in its order and with its labels. */
export const STAT_CARDS = [
  { key: 'totalUsers', label: 'Total Users' },
  { key: 'activeUsers', label: 'Active Users (30d)' },
  { key: 'lockedUsers', label: 'Locked Accounts' },
  { key: 'totalFiles', label: 'Total Files' },
  { key: 'activeSessions', label: 'Active Sessions' },
  { key: 'recentSignups', label: 'New Users (7d)' },
] as const satisfies readonly { key: keyof AdminStats; label: string }[];

const numberFormat = new Intl.NumberFormat();

/** The counts as a description list: each card's label is its term, read with its value. */
export function StatCards({ stats }: { stats: AdminStats }) {
  return (
    <dl className="admin-stats">
      {STAT_CARDS.map((card) => (
        <div key={card.key} className="panel admin-stat">
          <dt className="admin-stat__label">{card.label}</dt>
          <dd className="admin-stat__value">{numberFormat.format(stats[card.key])}</dd>
        </div>
      ))}
    </dl>
  );
}
