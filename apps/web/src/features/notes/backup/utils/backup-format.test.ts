import { describe, expect, it } from 'vitest';
import {
  BACKUP_MESSAGES,
  BackupFormatError,
  backupFileName,
  buildBackup,
  isEncryptedBackup,
  parseBackup,
  parseJson,
} from './backup-format';
import { derivedNoteId, isUuidV4, planImport } from './import-notes';

const user = { email: 'alice@example.org', id: '6f1c2b9e-4a57-4c1e-9d4b-0d7e3c1a2b3c' };

describe('buildBackup (spec section 3, "Export backup file")', () => {
  it('is exactly {version, notes, user, metadata}', () => {
    const now = new Date('2026-11-21T10:11:12.345Z');
    const note = {
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      title: 'Hello',
      content: 'World',
      tags: ['x', 'y'],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    };
    // Extra fields of the app's notes never leak into the file.
    const backup = buildBackup(
      [{ ...note, ...({ searchText: 'hello\nworld', wrappedDEK: 'secret' } as object) }],
      user,
      now,
    );
    expect(backup).toEqual({
      version: '1.0',
      notes: [note],
      user: { email: 'alice@example.org', id: user.id },
      metadata: { exported_at: '2026-11-21T10:11:12.345Z', total_notes: 1, export_type: 'full_backup' },
    });
    expect(Object.keys(backup)).toEqual(['version', 'notes', 'user', 'metadata']);
    expect(Object.keys(backup.notes[0]!)).toEqual([
      'id',
      'title',
      'content',
      'tags',
      'createdAt',
      'updatedAt',
    ]);
  });

  it('names the file with the local date', () => {
    const now = new Date(2026, 10, 5, 23, 59);
    expect(backupFileName(now)).toBe('vault-backup-2026-11-05.json');
    expect(backupFileName(now, true)).toBe('vault-backup-2026-11-05.encrypted.json');
  });
});

describe('parseBackup (spec section 5: JSON with a notes array)', () => {
  it("refuses anything else with 'Invalid backup file format'", () => {
    for (const value of [null, 42, 'x', [], {}, { notes: {} }, { notes: 'a' }]) {
      expect(() => parseBackup(value)).toThrow(BackupFormatError);
      expect(() => parseBackup(value)).toThrow(BACKUP_MESSAGES.invalidFormat);
    }
    expect(() => parseJson('{not json')).toThrow('Invalid backup file format');
  });

  it('takes notes leniently: strings only, trimmed, tags cleaned', () => {
    expect(
      parseBackup({
        notes: [
          { id: ' abc ', title: '  T ', content: ' C ', tags: [' a ', 'a', '', 7, 'b'] },
          { _id: 'legacy1', title: 5, tags: 'nope' },
          'not a note',
          {},
        ],
      }),
    ).toEqual([
      { sourceId: 'abc', title: 'T', content: 'C', tags: ['a', 'b'] },
      { sourceId: 'legacy1', title: '', content: '', tags: [] },
      { sourceId: null, title: '', content: '', tags: [] },
    ]);
  });

  it('keeps each note’s createdAt and updatedAt, to the millisecond, as the API stores them', () => {
    const now = new Date('2026-06-01T12:00:00.000Z');
    expect(
      parseBackup(
        {
          notes: [
            { title: 'a', createdAt: '2021-01-01T09:30:00.123Z', updatedAt: '2021-02-01T09:30:00.456Z' },
            { title: 'b', createdAt: '2021-01-01T10:30:00+01:00', updatedAt: '2021-01-01T09:30:00.000001Z' },
          ],
        },
        now,
      ).map((n) => n.dates),
    ).toEqual([
      { createdAt: '2021-01-01T09:30:00.123Z', updatedAt: '2021-02-01T09:30:00.456Z' },
      { createdAt: '2021-01-01T09:30:00.000Z', updatedAt: '2021-01-01T09:30:00.000Z' },
    ]);
  });

  it('leaves out dates the API would refuse, filling one from the other, and never created after updated', () => {
    const now = new Date('2026-06-01T12:00:00.000Z');
    const dates = (createdAt: unknown, updatedAt: unknown) =>
      parseBackup({ notes: [{ title: 'n', createdAt, updatedAt }] }, now)[0]!.dates;
    const day = '2021-01-01T00:00:00.000Z';
    // Neither usable: the server dates the note (no dates sent).
    expect(dates(undefined, undefined)).toBeUndefined();
    expect(dates('yesterday', 12345)).toBeUndefined();
    expect(dates('1999-12-31T23:59:59.999Z', '2026-06-01T12:05:00.001Z')).toBeUndefined();
    expect(dates('2021-01-01', '2021-02-30T00:00:00.000Z')).toBeUndefined();
    // One usable: both take it.
    expect(dates(day, 'soon')).toEqual({ createdAt: day, updatedAt: day });
    expect(dates(null, day)).toEqual({ createdAt: day, updatedAt: day });
    // Up to five minutes ahead (clock skew) and back to 2000-01-01.
    expect(dates('2000-01-01T00:00:00.000Z', '2026-06-01T12:05:00.000Z')).toEqual({
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2026-06-01T12:05:00.000Z',
    });
    // Created after updated: created becomes updated.
    expect(dates('2021-03-01T00:00:00.000Z', day)).toEqual({ createdAt: day, updatedAt: day });
  });

  it('recognises the encrypted envelope', () => {
    expect(isEncryptedBackup({ format: 'vault-encrypted-backup' })).toBe(true);
    expect(isEncryptedBackup({ version: '1.0', notes: [] })).toBe(false);
  });
});

describe('planImport (id de-duplication)', () => {
  const existing = 'b1b2c3d4-0000-4000-8000-000000000001';
  const fresh = 'c1b2c3d4-0000-4000-9000-000000000002';

  it('skips notes whose id already exists, keeps valid UUID v4 ids, and skips repeats within the file', async () => {
    const plan = await planImport(
      [
        { sourceId: existing, title: 'old', content: '', tags: [] },
        { sourceId: fresh, title: 'new', content: 'c', tags: ['t'] },
        { sourceId: fresh.toUpperCase(), title: 'again', content: '', tags: [] },
      ],
      new Set([existing]),
      user.id,
    );
    expect(plan.skipped).toBe(2);
    expect(plan.create).toEqual([{ id: fresh, plain: { title: 'new', content: 'c', tags: ['t'] } }]);
  });

  it('gives other ids a stable derived UUID v4 (a second import skips them) and missing ids a new one', async () => {
    const first = await planImport(
      [
        { sourceId: '64b7f0c2e4b0a1a2b3c4d5e6', title: 'legacy', content: '', tags: [] },
        { sourceId: null, title: 'no id', content: '', tags: [] },
      ],
      new Set(),
      user.id,
    );
    expect(first.create).toHaveLength(2);
    for (const n of first.create) expect(isUuidV4(n.id)).toBe(true);
    const derived = await derivedNoteId(user.id, '64b7f0c2e4b0a1a2b3c4d5e6');
    expect(first.create[0]!.id).toBe(derived);
    // Another user importing the same file gets other ids.
    expect(await derivedNoteId('another-user', '64b7f0c2e4b0a1a2b3c4d5e6')).not.toBe(derived);

    const second = await planImport(
      [{ sourceId: '64b7f0c2e4b0a1a2b3c4d5e6', title: 'legacy', content: '', tags: [] }],
      new Set(first.create.map((n) => n.id)),
      user.id,
    );
    expect(second).toEqual({ create: [], skipped: 1 });
  });
});
