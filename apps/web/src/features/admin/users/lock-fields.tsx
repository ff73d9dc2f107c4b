import { ADMIN_LIMITS, ADMIN_MESSAGES, adminLockBodySchema } from '@vault/contracts';
import { useState } from 'react';
import { TextField } from '../../../components/input';
import { formatDateTime } from '../../../lib/format';
import { LOCK_DEFAULTS } from './users-api';

export interface LockValues {
  reason: string;
  duration: string;
}

/** The spec's defaults (section 6): 'Manual admin lock' for 60 minutes. */
export const lockDefaults = (): LockValues => ({
  reason: LOCK_DEFAULTS.reason,
  duration: String(LOCK_DEFAULTS.duration),
});

export const LOCK_REASON_HINT = 'The user will see this reason in their security activity.';

/** The server's rule for the duration, checked here first; a blank field is missing, not 0 minutes. */
export function lockDurationError(duration: string): string | null {
  const text = duration.trim();
  if (!text || !/^\d+$/.test(text)) return ADMIN_MESSAGES.duration;
  return adminLockBodySchema.shape.duration.safeParse(text).success ? null : ADMIN_MESSAGES.duration;
}

/** Whether the lock can be sent: a reason and a valid duration. */
export const lockReady = (values: LockValues): boolean =>
  values.reason.trim() !== '' && lockDurationError(values.duration) === null;

/** A lock's reason and duration in minutes (one account or many), and when it would end. */
export function LockFields({
  values,
  onChange,
}: {
  values: LockValues;
  onChange: (next: LockValues) => void;
}) {
  // From when the form opened: near enough for a lock of at least a minute, and render stays pure.
  const [openedAt] = useState(Date.now);
  const durationError = lockDurationError(values.duration);
  const ends = durationError
    ? null
    : formatDateTime(new Date(openedAt + Number(values.duration.trim()) * 60_000).toISOString());
  return (
    <>
      <TextField
        label="Reason"
        value={values.reason}
        maxLength={500}
        required
        hint={LOCK_REASON_HINT}
        onChange={(e) => onChange({ ...values, reason: e.target.value })}
      />
      <TextField
        label="Duration (minutes)"
        type="number"
        min={1}
        max={ADMIN_LIMITS.lockMinutesMax}
        step={1}
        inputMode="numeric"
        required
        value={values.duration}
        error={durationError}
        hint={ends ? `The lock ends ${ends}.` : undefined}
        onChange={(e) => onChange({ ...values, duration: e.target.value })}
      />
    </>
  );
}
