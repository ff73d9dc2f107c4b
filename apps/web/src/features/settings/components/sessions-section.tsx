import { useState } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { RetryBanner } from '../../../components/retry-banner';
import { SettingsSection } from '../../../components/settings-section';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { revokeSession, sessionsQueryKey, useSessions } from '../api/account';
import { failureText } from '../utils/settings-validation';
import { describeUserAgent } from '../utils/user-agent';

const formatWhen = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/** Signed-in devices (GET /api/auth/sessions), this one marked, the others revocable. */
export function SessionsSection() {
  const api = useApiClient();
  const cache = useQueryCache();
  const sessions = useSessions();
  const [revoking, setRevoking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const revoke = async (id: string) => {
    setError(null);
    setRevoking(id);
    try {
      await revokeSession(api, id);
      cache.invalidate(sessionsQueryKey);
    } catch (e) {
      setError(failureText(e, 'Failed to revoke session'));
    } finally {
      setRevoking(null);
    }
  };

  let list;
  if (sessions.data) {
    const sorted = [...sessions.data].sort(
      (a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt),
    );
    list = (
      <ul className="session-list" aria-label="Signed-in devices">
        {sorted.map((s) => {
          const device = describeUserAgent(s.userAgent);
          return (
            <li key={s.id} className="session-list__item">
              <div>
                <p className="session-list__device">
                  {device} {s.current ? <span className="tag tag--success">This device</span> : null}
                </p>
                <p className="settings-hint">
                  {s.ipAddress || 'Unknown IP'} · last active {formatWhen(s.lastSeenAt)} · signed in{' '}
                  {formatWhen(s.createdAt)}
                </p>
              </div>
              {s.current ? null : (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => void revoke(s.id)}
                  loading={revoking === s.id}
                  loadingLabel="Revoking..."
                  disabled={revoking !== null}
                  aria-label={`Revoke ${device} (${s.ipAddress || 'unknown IP'})`}
                >
                  Revoke
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    );
  } else if (sessions.status === 'error') {
    list = (
      <RetryBanner onRetry={() => void sessions.refetch()}>
        {messageOf(sessions.error, 'Failed to load sessions')}
      </RetryBanner>
    );
  } else {
    list = <Spinner label="Loading sessions" />;
  }

  return (
    <SettingsSection
      title="Devices and sessions"
      description="Where your account is signed in. Revoking a session signs that device out at its next request."
    >
      {list}
      <ErrorBanner error={error} />
    </SettingsSection>
  );
}
