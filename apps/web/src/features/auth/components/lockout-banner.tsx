import { ADMIN_MESSAGES } from '@vault/contracts';
import { Banner } from '../../../components/banner';
import { LockIcon } from '../../../components/icons';
import { formatMmSs } from '../../../lib/format';
import { LOCKOUT_TITLE } from '../../../lib/lockout';

export { DEFAULT_LOCKOUT_SECONDS, LOCKOUT_TITLE } from '../../../lib/lockout';

/** Spec section 8: 'Account Temporarily Locked ... due to 5 consecutive failed login attempts', with a countdown. */
export function LockoutBanner({
  remainingSeconds,
  byAdmin = false,
}: {
  remainingSeconds: number;
  byAdmin?: boolean;
}) {
  return (
    <Banner tone="danger" title={LOCKOUT_TITLE} icon={<LockIcon />} role="alert">
      <p>
        {byAdmin
          ? `${ADMIN_MESSAGES.lockedByAdmin}. Contact your administrator if you need access sooner.`
          : 'Sign-in is paused due to 5 consecutive failed login attempts.'}
      </p>
      <p className="lockout__countdown">
        Try again in{' '}
        <span role="timer" aria-live="off" className="lockout__time">
          {formatMmSs(remainingSeconds)}
        </span>
      </p>
    </Banner>
  );
}
