import { describe, expect, it } from 'vitest';
import { EMPTY_NOTES_SNAPSHOT, type NotesSnapshot } from './notes-store';
import { noteTotals } from './use-note-totals';

function snapshot(over: Partial<NotesSnapshot> & { loaded?: number }): NotesSnapshot {
  const { loaded = 0, ...rest } = over;
  return {
    ...EMPTY_NOTES_SNAPSHOT,
    status: 'ready',
    items: Array.from({ length: loaded }, () => ({}) as NotesSnapshot['items'][number]),
    ...rest,
  };
}

describe(noteTotals.name, () => {
  it('after an access reset: the locked note is counted, and said, wherever the count shows', () => {
    const s = snapshot({ complete: true, loaded: 1, failedCount: 1, lockedCount: 1 });
    expect(noteTotals(s, { active: 1, deleted: 0 }, true)).toEqual({
      active: 1,
      opened: 1,
      locked: 1,
      lockedPossible: true,
      deleted: 0,
      label: '1 note, 1 locked',
    });
  });

  it('without a key from before a reset nothing is locked: a note whose key does not open was tampered with', () => {
    const s = snapshot({ complete: true, loaded: 1, failedCount: 1, lockedCount: 1 });
    expect(noteTotals(s, { active: 1, deleted: 0 })).toEqual({
      active: 1,
      opened: 1,
      locked: 0,
      lockedPossible: false,
      deleted: 0,
      label: '1 note',
    });
  });

  it('once the list is loaded here, its notes are the count (a change here shows before the server is asked again)', () => {
    const s = snapshot({ complete: true, loaded: 3, decryptedCount: 3 });
    expect(noteTotals(s, { active: 2, deleted: 4 })).toMatchObject({
      active: 3,
      opened: 3,
      label: '3 notes',
    });
  });

  it("while it loads: the server's total (never below what is loaded), and the notes opened so far", () => {
    const s = snapshot({
      loaded: 550,
      decryptedCount: 49,
      failedCount: 1,
      lockedCount: 1,
      pendingCount: 500,
    });
    expect(noteTotals(s, { active: 10_000, deleted: 0 }, true)).toMatchObject({
      active: 10_000,
      opened: 50,
      locked: 1,
      label: '10000 notes, 1 locked',
    });
    expect(noteTotals(s, { active: 10, deleted: 0 }).active).toBe(550);
  });

  it('without the counts: the loaded notes once the list shows, else nothing', () => {
    expect(noteTotals(snapshot({ loaded: 2, decryptedCount: 2 }), undefined)).toMatchObject({
      active: 2,
      deleted: undefined,
      label: '2 notes',
    });
    expect(noteTotals(snapshot({ status: 'idle' }), undefined)).toMatchObject({
      active: undefined,
      label: undefined,
    });
    expect(noteTotals(snapshot({ status: 'idle' }), { active: 7, deleted: 1 })).toMatchObject({
      active: 7,
      deleted: 1,
      label: '7 notes',
    });
  });
});
