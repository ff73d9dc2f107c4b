import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMmSs } from './format';

describe('formatMmSs', () => {
  it.each([
    [600, '10:00'],
    [599, '09:59'],
    [60, '01:00'],
    [59, '00:59'],
    [9, '00:09'],
    [0, '00:00'],
    [-5, '00:00'],
    [59.2, '01:00'],
    [3600, '60:00'],
    [Number.NaN, '00:00'],
  ])('%s seconds → %s', (s, text) => {
    expect(formatMmSs(s)).toBe(text);
  });
});

describe('formatDate', () => {
  it('formats an ISO date in the locale and refuses garbage', () => {
    expect(formatDate('2026-03-14T09:26:53.000Z', 'en-GB')).toBe('14 March 2026');
    expect(formatDate('not a date')).toBeUndefined();
    expect(formatDate(undefined)).toBeUndefined();
  });
});

describe('formatDateTime', () => {
  it('says which clock the time is on, and keeps garbage as given', () => {
    expect(formatDateTime('2026-11-21T09:30:00.000Z', 'en-GB', 'UTC')).toBe('21 Nov 2026, 09:30 UTC');
    expect(formatDateTime('2026-11-21T09:30:00.000Z', 'en-GB', 'Europe/Berlin')).toBe(
      '21 Nov 2026, 10:30 CET',
    );
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
