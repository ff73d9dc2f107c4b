import type { OwnSecurityEvent } from '@vault/contracts';
import { LoadMore } from '../../../components/load-more';
import { RetryBanner } from '../../../components/retry-banner';
import { SettingsSection } from '../../../components/settings-section';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { formatDateTime } from '../../../lib/format';
import { ownSecurityEventText } from '../../../lib/security-event-text';
import { useCursorList } from '../../../lib/use-cursor-list';
import { getOwnSecurityEvents } from '../api/security-events';
import { describeUserAgent } from '../../../lib/user-agent';

const FAILED = 'Failed to load security activity';

function ActivityItem({ event }: { event: OwnSecurityEvent }) {
  const { text, note } = ownSecurityEventText(event.eventType, event.details);
  const where = [event.userAgent ? describeUserAgent(event.userAgent) : null, event.ipAddress || null]
    .filter(Boolean)
    .join(' · ');
  return (
    <li className="session-list__item">
      <div>
        <p className="session-list__device">{text}</p>
        {note ? <p>{note}</p> : null}
        <p className="settings-hint">
          <time dateTime={event.timestamp}>{formatDateTime(event.timestamp)}</time>
          {where ? ` · ${where}` : null}
        </p>
      </div>
    </li>
  );
}

/** Recent security activity: the user's own security events (GET /api/auth/security-events), Load more. */
export function SecurityActivitySection() {
  const api = useApiClient();
  const list = useCursorList('own-events', async (cursor) => {
    const page = await getOwnSecurityEvents(api, cursor);
    return { items: page.events, nextCursor: page.nextCursor };
  });

  let body;
  if (list.status === 'error') {
    body = <RetryBanner onRetry={list.reload}>{messageOf(list.error, FAILED)}</RetryBanner>;
  } else if (list.status === 'loading') {
    body = <Spinner label="Loading security activity" />;
  } else if (list.items.length === 0) {
    body = <p className="settings-hint">No security activity yet.</p>;
  } else {
    body = (
      <>
        <ul className="session-list" aria-label="Recent security activity">
          {list.items.map((event) => (
            <ActivityItem key={event.id} event={event} />
          ))}
        </ul>
        <LoadMore list={list} failText={FAILED} />
      </>
    );
  }

  return (
    <SettingsSection
      title="Recent security activity"
      description="Sign-ins, changes to your security settings and anything an administrator did to your account."
    >
      {body}
    </SettingsSection>
  );
}
