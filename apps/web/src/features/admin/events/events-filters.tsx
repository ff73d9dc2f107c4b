import { TextField } from '../../../components/input';
import { SECURITY_EVENT_TYPES, securityEventLabel } from '../../../lib/security-event-text';
import { SelectField } from '../tables/admin-table';
import type { EventFilters } from './events-api';

/** `?tab=events&user=<id>`: the Security Events of one account (a user's details, 'View events'). */
export const EVENTS_USER_PARAM = 'user';

const TYPE_OPTIONS = [
  { value: '', label: 'All types' },
  ...SECURITY_EVENT_TYPES.map((type) => ({ value: type as string, label: securityEventLabel(type) })),
];

/** The Security Events filters: type, account id, and a from/to range in local time. */
export function EventsFiltersForm({
  value,
  onChange,
}: {
  value: EventFilters;
  onChange: (next: EventFilters) => void;
}) {
  return (
    <div className="admin-toolbar" role="group" aria-label="Event filters">
      <SelectField
        label="Type"
        value={value.type}
        options={TYPE_OPTIONS}
        onChange={(type) => onChange({ ...value, type })}
      />
      <TextField
        label="User id"
        value={value.userId}
        autoComplete="off"
        spellCheck={false}
        placeholder="Any account"
        onChange={(e) => onChange({ ...value, userId: e.target.value })}
      />
      <TextField
        label="From"
        type="datetime-local"
        value={value.from}
        onChange={(e) => onChange({ ...value, from: e.target.value })}
      />
      <TextField
        label="To"
        type="datetime-local"
        value={value.to}
        onChange={(e) => onChange({ ...value, to: e.target.value })}
      />
    </div>
  );
}
