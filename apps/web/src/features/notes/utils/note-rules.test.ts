import { describe, expect, it } from 'vitest';
import { NOTE_MESSAGES, addTag, isDirty, removeTag, validateNote } from './note-rules';

describe('validateNote', () => {
  it("requires a title after trimming ('Title is required')", () => {
    expect(validateNote({ title: '', content: 'x', tags: [] })).toEqual({
      ok: false,
      error: 'Title is required',
    });
    expect(validateNote({ title: '   \n\t', content: 'x', tags: [] })).toEqual({
      ok: false,
      error: NOTE_MESSAGES.titleRequired,
    });
  });

  it('trims the title and the content', () => {
    expect(validateNote({ title: '  Hello  ', content: '\n body \n', tags: ['a'] })).toEqual({
      ok: true,
      note: { title: 'Hello', content: 'body', tags: ['a'] },
    });
  });
});

describe('tags', () => {
  it('adds a trimmed tag', () => {
    expect(addTag(['a'], '  b  ')).toEqual({ ok: true, tags: ['a', 'b'] });
  });

  it('refuses an empty tag and a duplicate (after trimming)', () => {
    expect(addTag(['a'], '   ')).toEqual({ ok: false, tags: ['a'], reason: 'empty' });
    expect(addTag(['a', 'b'], ' b ')).toEqual({ ok: false, tags: ['a', 'b'], reason: 'duplicate' });
  });

  it('removes a tag', () => {
    expect(removeTag(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
    expect(removeTag(['a'], 'zzz')).toEqual(['a']);
  });
});

describe('isDirty (the unsaved-changes dot)', () => {
  const initial = { title: 'T', content: 'C', tags: ['x'] };
  it('is clean when nothing changed', () => {
    expect(isDirty(initial, { title: 'T', content: 'C', tags: ['x'] })).toBe(false);
  });
  it('is dirty after a change of title, content or tags', () => {
    expect(isDirty(initial, { ...initial, title: 'T2' })).toBe(true);
    expect(isDirty(initial, { ...initial, content: '' })).toBe(true);
    expect(isDirty(initial, { ...initial, tags: [] })).toBe(true);
    expect(isDirty(initial, { ...initial, tags: ['y'] })).toBe(true);
  });
});
