import { useEffect, useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { formatMmSs } from '../../../lib/format';
import { useAdminSession } from '../api/admin-api';
import { SESSION_ENDED_NOTICE } from '../state/admin-session-provider';

/** The last stretch before the idle end in which the console warns. */
export const IDLE_WARNING_MS = 2 * 60_000;

function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

/**
 * The admin session's idle countdown in the header; in the last 2 minutes a warning with 'Stay
 * signed in' (any admin call moves the deadline on); at zero the session is over.
 */
export function IdleCountdown() {
  const { idleExpiresAtMs, end, refresh } = useAdminSession();
  const now = useNow();
  const [busy, setBusy] = useState(false);
  const remainingMs = idleExpiresAtMs - now;
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));

  useEffect(() => {
    if (remainingMs <= 0) end(SESSION_ENDED_NOTICE);
  }, [remainingMs, end]);

  const stay = async () => {
    setBusy(true);
    try {
      await refresh();
    } catch {
      // A 401 already ended the session; anything else leaves the countdown as it was.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p className="admin-idle">
        Session ends in{' '}
        <span role="timer" aria-live="off">
          {formatMmSs(seconds)}
        </span>{' '}
        without activity
      </p>
      {remainingMs <= IDLE_WARNING_MS ? (
        <Banner
          tone="warning"
          role="alert"
          title="Your admin session is about to end"
          className="admin-idle__warning"
          action={
            <Button size="sm" variant="secondary" onClick={() => void stay()} loading={busy}>
              Stay signed in
            </Button>
          }
        >
          {/* Static text: the alert is read once, the header's timer shows the seconds. */}
          You will be signed out in less than 2 minutes without activity.
        </Banner>
      ) : null}
    </>
  );
}
