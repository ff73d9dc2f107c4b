import { Link } from 'react-router-dom';
import { RetryBanner } from '../../../components/retry-banner';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useNoteCounts } from '../../../lib/note-counts';
import { useMe } from '../../../lib/session/get-me';

/** Account: email, the real creation date and 2FA status from /api/auth/me, and the note count when known. */
export function AccountTab() {
  const me = useMe();
  const counts = useNoteCounts();

  if (me.status === 'error') {
    return (
      <RetryBanner title="Could not load your account" onRetry={() => void me.refetch()}>
        {messageOf(me.error, 'Failed to load account details')}
      </RetryBanner>
    );
  }
  if (!me.data) {
    return (
      <div className="loading-block">
        <Spinner label="Loading account details" /> <span>Loading account details...</span>
      </div>
    );
  }
  const { user } = me.data;
  return (
    <div className="settings-stack">
      <section className="settings-section">
        <h3 className="settings-section__title">Account details</h3>
        <dl className="details">
          <div className="details__row">
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </div>
          <div className="details__row">
            <dt>Username</dt>
            <dd>{user.username}</dd>
          </div>
          <div className="details__row">
            <dt>Member since</dt>
            <dd>
              <time dateTime={user.createdAt}>{formatDate(user.createdAt) ?? 'Unknown'}</time>
            </dd>
          </div>
          {counts.data ? (
            <div className="details__row">
              <dt>Total notes</dt>
              <dd>{counts.data.active}</dd>
            </div>
          ) : null}
          <div className="details__row">
            <dt>Two-step verification</dt>
            <dd className="details__inline">
              <span className={`tag ${user.twoFactorEnabled ? 'tag--success' : 'tag--muted'}`}>
                {user.twoFactorEnabled ? 'Enabled' : 'Disabled'}
              </span>
              <Link to="/settings?tab=security">Manage</Link>
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
