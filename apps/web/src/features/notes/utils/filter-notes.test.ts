import { describe, expect, it } from 'vitest';
import { toDecrypted, type NoteItem } from '../state/notes-store';
import {
  collectTags,
  filterNotes,
  hasActiveFilters,
  hasAllTags,
  matchesSearch,
  visibleItems,
} from './filter-notes';

const sealed = (id: string) => ({
  id,
  title: 'x',
  content: 'x',
  tags: [],
  wrappedDEK: 'x',
  isEncrypted: true,
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  deletedAt: null,
});
const note = (id: string, title: string, content: string, tags: string[]) =>
  toDecrypted(sealed(id), { title, content, tags });

const notes = [
  note('1', 'Shopping list', 'Milk, eggs and BREAD', ['home', 'errands']),
  note('2', 'Quarterly report', 'Revenue grew', ['work', 'finance']),
  note('3', 'Trip to Lisbon', 'Book the hotel', ['travel', 'home']),
  note('4', 'Untagged idea', 'A note about Bread baking', []),
];

describe('search (spec section 5: case-insensitive on title, content or tags)', () => {
  it('matches the title, the content and the tags, whatever the case', () => {
    expect(filterNotes(notes, { searchQuery: 'SHOPPING', selectedTags: [] }).map((n) => n.id)).toEqual(['1']);
    expect(filterNotes(notes, { searchQuery: 'bread', selectedTags: [] }).map((n) => n.id)).toEqual([
      '1',
      '4',
    ]);
    expect(filterNotes(notes, { searchQuery: 'Finance', selectedTags: [] }).map((n) => n.id)).toEqual(['2']);
  });

  it('an empty or blank query matches everything; surrounding spaces are ignored', () => {
    expect(filterNotes(notes, { searchQuery: '', selectedTags: [] })).toHaveLength(4);
    expect(filterNotes(notes, { searchQuery: '   ', selectedTags: [] })).toHaveLength(4);
    expect(matchesSearch(notes[2]!, '  lisbon ')).toBe(true);
  });

  it('finds nothing for text that is in no note', () => {
    expect(filterNotes(notes, { searchQuery: 'zebra', selectedTags: [] })).toEqual([]);
  });
});

describe('tag filter (a note must have ALL selected tags)', () => {
  it('one tag selects every note that has it', () => {
    expect(filterNotes(notes, { searchQuery: '', selectedTags: ['home'] }).map((n) => n.id)).toEqual([
      '1',
      '3',
    ]);
  });

  it('two tags select only the notes having both', () => {
    expect(
      filterNotes(notes, { searchQuery: '', selectedTags: ['home', 'travel'] }).map((n) => n.id),
    ).toEqual(['3']);
    expect(filterNotes(notes, { searchQuery: '', selectedTags: ['work', 'home'] })).toEqual([]);
  });

  it('tags are matched exactly (the filter uses the panel tags as they are)', () => {
    expect(hasAllTags(notes[0]!, ['Home'])).toBe(false);
  });

  it('search and tags combine', () => {
    expect(filterNotes(notes, { searchQuery: 'milk', selectedTags: ['home'] }).map((n) => n.id)).toEqual([
      '1',
    ]);
    expect(filterNotes(notes, { searchQuery: 'hotel', selectedTags: ['errands'] })).toEqual([]);
  });

  it('filters are active with a query or a tag', () => {
    expect(hasActiveFilters('', [])).toBe(false);
    expect(hasActiveFilters(' ', [])).toBe(false);
    expect(hasActiveFilters('a', [])).toBe(true);
    expect(hasActiveFilters('', ['x'])).toBe(true);
  });
});

describe('collectTags (the tag panel)', () => {
  it('lists unique tags alphabetically with the number of notes having each', () => {
    expect(collectTags(notes)).toEqual([
      { tag: 'errands', count: 1 },
      { tag: 'finance', count: 1 },
      { tag: 'home', count: 2 },
      { tag: 'travel', count: 1 },
      { tag: 'work', count: 1 },
    ]);
  });

  it('sorts case-insensitively and counts a tag once per note', () => {
    const list = [
      note('a', 't', '', ['beta', 'Alpha', 'alpha', 'beta']),
      note('b', 't', '', ['Zed', 'apple']),
    ];
    expect(collectTags(list)).toEqual(
      ['Alpha', 'alpha', 'apple', 'beta', 'Zed'].map((tag) => ({ tag, count: 1 })),
    );
  });

  it('puts numbers in natural order', () => {
    const list = [note('a', 't', '', ['t10', 't2', 't1', 'T3'])];
    expect(collectTags(list).map((t) => t.tag)).toEqual(['t1', 't2', 'T3', 't10']);
  });

  it('is empty for notes without tags', () => {
    expect(collectTags([notes[3]!])).toEqual([]);
  });
});

describe('visibleItems (the grid)', () => {
  const items: NoteItem[] = [
    { kind: 'decrypted', id: '1', sealed: sealed('1'), note: notes[0]! },
    { kind: 'failed', id: 'f', sealed: sealed('f'), error: 'DECRYPT_FAILED' },
    { kind: 'pending', id: 'p', sealed: sealed('p') },
    { kind: 'decrypted', id: '2', sealed: sealed('2'), note: notes[1]! },
  ];

  it('without filters: decrypted and failed notes in order, pending ones not yet', () => {
    expect(visibleItems(items, { searchQuery: '', selectedTags: [] }).map((i) => i.id)).toEqual([
      '1',
      'f',
      '2',
    ]);
  });

  it('with filters: only matching decrypted notes (a failed note cannot match)', () => {
    expect(visibleItems(items, { searchQuery: 'report', selectedTags: [] }).map((i) => i.id)).toEqual(['2']);
    expect(visibleItems(items, { searchQuery: '', selectedTags: ['home'] }).map((i) => i.id)).toEqual(['1']);
  });
});
