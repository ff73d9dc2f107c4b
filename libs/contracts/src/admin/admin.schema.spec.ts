import { parseFirst } from '../common/validation';
import { adminEventsQuerySchema } from './admin.schema';

/** The first failing rule's message, or null when the query is valid. */
function messageOf(query: Record<string, unknown>): string | null {
  const result = parseFirst(adminEventsQuerySchema, query);
  return result.ok ? null : result.message;
}

describe('adminEventsQuerySchema dates', () => {
  it.each(['1970-01-01T00:00:00Z', '2026-11-26T17:00:00+02:00', '9999-12-31T23:59:59Z'])(
    'accepts %s',
    (from) => {
      expect(messageOf({ from, to: from })).toBeNull();
    },
  );

  // Postgres has no year 0000: such a date must be a 400, never reach the database.
  it.each([
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '1969-12-31T23:59:59Z',
    'yesterday',
    '2026-13-01T00:00:00Z',
  ])('refuses %s with Invalid date', (date) => {
    expect(messageOf({ from: date })).toBe('Invalid date');
    expect(messageOf({ to: date })).toBe('Invalid date');
  });
});
