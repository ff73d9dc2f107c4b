import type { AdminSessionRow } from '@vault/contracts';
import { Button } from '../../../components/button';
import { describeUserAgent } from '../../../lib/user-agent';

/** A session's device as people say it: 'Firefox 133 on Linux (203.0.113.7)'. */
export const sessionDevice = (s: AdminSessionRow) =>
  `${describeUserAgent(s.userAgent)} (${s.ipAddress || 'unknown IP'})`;

/** The Revoke cell of a session row (the action asks first). */
export function RevokeCell({ label, onRevoke }: { label: string; onRevoke: () => void }) {
  return (
    <td>
      <Button size="sm" variant="secondary" aria-label={label} onClick={onRevoke}>
        Revoke
      </Button>
    </td>
  );
}
