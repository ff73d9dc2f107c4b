import { TextField } from '../../../components/input';
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

/** A lock's reason and duration in minutes (one account or many). */
export function LockFields({
  values,
  onChange,
}: {
  values: LockValues;
  onChange: (next: LockValues) => void;
}) {
  return (
    <>
      <TextField
        label="Reason"
        value={values.reason}
        maxLength={500}
        required
        onChange={(e) => onChange({ ...values, reason: e.target.value })}
      />
      <TextField
        label="Duration (minutes)"
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        required
        value={values.duration}
        onChange={(e) => onChange({ ...values, duration: e.target.value })}
      />
    </>
  );
}
