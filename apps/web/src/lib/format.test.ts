import { describe, expect, it } from 'vitest';
import { compareTags, formatCardDate, formatDate, formatDateTime, formatMmSs } from './format';

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

describe('formatCardDate', () => {
  it('writes what toLocaleDateString and toLocaleTimeString write, in each locale, and nothing for garbage', () => {
    const dates = ['2026-03-14T09:26:53.000Z', '2026-12-31T23:59:00.000Z', '1999-01-02T00:05:00.000Z'];
    for (const locale of [undefined, 'en-GB', 'en-US', 'de-DE', 'ja-JP', 'ar-EG']) {
      for (const iso of dates) {
        const d = new Date(iso);
        const expected = `${d.toLocaleDateString(locale)} ${d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })}`;
        // Twice: the second call uses the locale's remembered formatters.
        expect(formatCardDate(iso, locale)).toBe(expected);
        expect(formatCardDate(iso, locale)).toBe(expected);
      }
    }
    expect(formatCardDate('2026-03-14T09:26:53.000Z', 'en-GB')).toMatch(/^14\/03\/2026 \d{2}:\d{2}$/);
    expect(formatCardDate('not a date')).toBe('');
    expect(formatCardDate(null)).toBe('');
    expect(formatCardDate(undefined)).toBe('');
  });
});

describe('compareTags', () => {
  it('orders case-insensitively with numbers in natural order, then by code point', () => {
    expect(['t10', 'Work', 'b', 't2', 'work', 'A'].sort(compareTags)).toEqual([
      'A',
      'b',
      't2',
      't10',
      'Work',
      'work',
    ]);
    expect(compareTags('x', 'x')).toBe(0);
  });
});
