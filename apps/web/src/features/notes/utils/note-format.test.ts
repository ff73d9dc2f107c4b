import { describe, expect, it } from 'vitest';
import { NOTE_PREVIEW_LENGTH, TAGS_PER_CARD, TRASH_PREVIEW_LENGTH } from './limits';
import { cardDate, cardTags, formatNoteDate, previewText } from './note-format';

describe('previewText', () => {
  it('keeps text up to the limit as it is', () => {
    const text = 'a'.repeat(150);
    expect(previewText(text, NOTE_PREVIEW_LENGTH)).toBe(text);
    expect(previewText('short', NOTE_PREVIEW_LENGTH)).toBe('short');
  });

  it('cuts longer text to the first 150 (card) or 100 (trash) characters and marks the cut', () => {
    const text = 'x'.repeat(149) + 'yz' + 'tail';
    expect(previewText(text, NOTE_PREVIEW_LENGTH)).toBe('x'.repeat(149) + 'y…');
    const long = 'b'.repeat(300);
    expect(previewText(long, TRASH_PREVIEW_LENGTH)).toBe('b'.repeat(100) + '…');
  });

  it('never splits an emoji (a surrogate pair) at the cut', () => {
    const text = 'a'.repeat(149) + '😀' + 'more';
    const out = previewText(text, 150);
    expect(out).toBe('a'.repeat(149) + '…');
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('cardTags', () => {
  it('shows at most 3 tags and counts the rest', () => {
    expect(TAGS_PER_CARD).toBe(3);
    expect(cardTags(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(cardTags(['a', 'b', 'c'])).toEqual({ shown: ['a', 'b', 'c'], more: 0 });
    expect(cardTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
  });
});

describe('dates (locale date plus hour and minute)', () => {
  it('formats with the locale date and hh:mm', () => {
    const iso = '2026-03-14T09:26:53.000Z';
    const d = new Date(iso);
    const expected = `${d.toLocaleDateString('en-GB')} ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;
    expect(formatNoteDate(iso, 'en-GB')).toBe(expected);
    expect(formatNoteDate(iso, 'en-GB')).toMatch(/^\d{2}\/\d{2}\/2026 \d{2}:\d{2}$/);
    expect(formatNoteDate(iso, 'en-GB')).not.toMatch(/:53$/);
  });

  it('uses the updated date, else the created date', () => {
    const created = '2026-01-01T08:00:00.000Z';
    const updated = '2026-02-02T08:00:00.000Z';
    expect(cardDate({ createdAt: created, updatedAt: updated }, 'en-GB')).toBe(
      formatNoteDate(updated, 'en-GB'),
    );
    expect(cardDate({ createdAt: created, updatedAt: '' }, 'en-GB')).toBe(formatNoteDate(created, 'en-GB'));
  });

  it('is empty for a missing or unreadable date', () => {
    expect(formatNoteDate(undefined)).toBe('');
    expect(formatNoteDate('not a date')).toBe('');
  });
});
