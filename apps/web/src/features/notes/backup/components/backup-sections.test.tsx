import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useNoteCounts } from '../../../../lib/note-counts';
import { TEST_USER } from '../../../../testing/fake-server';
import { openBackup, sealBackup } from '../../../../workers/notes-ops';
import { FakeNotesApi, makeVaultKey, renderNotes, sealNote } from '../../testing/notes-harness';
import { localDate } from '../utils/backup-format';

/** What the sidebar shows: the counts from GET /api/notes/counts, through the shared query cache. */
function CountsProbe() {
  const counts = useNoteCounts();
  return (
    <p>Sidebar: {counts.data ? `${counts.data.active} notes, ${counts.data.deleted} deleted` : '...'}</p>
  );
}
import { ExportSection } from './export-section';
import { ImportSection } from './import-section';

const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };

async function renderSections(make: (key: CryptoKey) => Promise<FakeNotesApi>) {
  const key = await makeVaultKey();
  const api = await make(key);
  const downloads: Array<{ name: string; body: string }> = [];
  const onDownload = vi.fn((name: string, body: string) => void downloads.push({ name, body }));
  const view = await renderNotes(
    [
      {
        path: '/settings',
        element: (
          <>
            <ExportSection onDownload={onDownload} />
            <ImportSection />
            <CountsProbe />
          </>
        ),
      },
    ],
    { path: '/settings', api, vaultKey: key },
  );
  return { ...view, downloads };
}

const file = (content: unknown, name = 'backup.json') =>
  new File([typeof content === 'string' ? content : JSON.stringify(content)], name, {
    type: 'application/json',
  });

describe('Export (Settings → Data & Privacy)', () => {
  it('downloads vault-backup-YYYY-MM-DD.json in the spec format, with every decrypted note', async () => {
    const { user, downloads } = await renderSections(
      async (key) =>
        new FakeNotesApi([
          await sealNote(
            key,
            { title: 'First', content: 'one', tags: ['a'] },
            {
              id: '11111111-1111-4111-8111-111111111111',
              createdAt: '2026-01-01T00:00:00.000Z',
              updatedAt: '2026-01-03T00:00:00.000Z',
            },
          ),
          await sealNote(
            key,
            { title: 'Second', content: 'two', tags: [] },
            { id: '22222222-2222-4222-8222-222222222222', createdAt: '2026-01-02T00:00:00.000Z' },
          ),
        ]),
    );
    await user.click(screen.getByRole('button', { name: 'Export Notes' }));
    await screen.findByText(/^Exported 2 notes to vault-backup-/);
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toBe(`vault-backup-${localDate()}.json`);
    const backup = JSON.parse(downloads[0]!.body) as Record<string, unknown>;
    expect(backup).toEqual({
      version: '1.0',
      notes: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          title: 'First',
          content: 'one',
          tags: ['a'],
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-03T00:00:00.000Z',
        },
        {
          id: '22222222-2222-4222-8222-222222222222',
          title: 'Second',
          content: 'two',
          tags: [],
          createdAt: '2026-01-02T00:00:00.000Z',
          updatedAt: '2026-01-02T00:00:00.000Z',
        },
      ],
      user: { email: TEST_USER.email, id: TEST_USER.id },
      metadata: { exported_at: expect.any(String), total_notes: 2, export_type: 'full_backup' },
    });
  });

  it('the encrypted export checks the password twice and round-trips', async () => {
    const { user, downloads } = await renderSections(
      async (key) => new FakeNotesApi([await sealNote(key, { title: 'Confidential', content: 'x' })]),
    );
    await user.click(screen.getByRole('radio', { name: /Encrypted with an export password/ }));
    await user.type(screen.getByLabelText('Export password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Export Notes' }));
    expect(screen.getByText('Use at least 10 characters')).toBeTruthy();
    await user.clear(screen.getByLabelText('Export password'));
    await user.type(screen.getByLabelText('Export password'), 'a long export password');
    await user.type(screen.getByLabelText('Confirm export password'), 'a long export passwort');
    await user.click(screen.getByRole('button', { name: 'Export Notes' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(downloads).toHaveLength(0);

    await user.clear(screen.getByLabelText('Confirm export password'));
    await user.type(screen.getByLabelText('Confirm export password'), 'a long export password');
    await user.click(screen.getByRole('button', { name: 'Export Notes' }));
    await screen.findByText(/^Exported 1 note to vault-backup-.*\.encrypted\.json\.$/, undefined, {
      timeout: 10_000,
    });
    expect(downloads[0]!.name).toBe(`vault-backup-${localDate()}.encrypted.json`);
    expect(downloads[0]!.body).not.toContain('Confidential');
    const envelope = JSON.parse(downloads[0]!.body) as unknown;
    expect(envelope).toMatchObject({
      format: 'vault-encrypted-backup',
      version: 1,
      kdfParams: { kdf: 'argon2id' },
    });
    const inner = JSON.parse(await openBackup('a long export password', envelope)) as {
      notes: Array<{ title: string }>;
    };
    expect(inner.notes.map((n) => n.title)).toEqual(['Confidential']);
    await expect(openBackup('another password!', envelope)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  }, 20_000);

  it("'Failed to export data: ...' when the notes cannot be read", async () => {
    const { user } = await renderSections(async () => new FakeNotesApi().unavailable('GET /api/notes'));
    await user.click(screen.getByRole('button', { name: 'Export Notes' }));
    expect(
      await screen.findByText('Failed to export data: Failed to load notes: Service unavailable'),
    ).toBeTruthy();
  });
});

describe('Import (Settings → Data & Privacy)', () => {
  const existingId = '33333333-3333-4333-8333-333333333333';
  const newId = '44444444-4444-4444-8444-444444444444';

  it('imports new notes sealed with new keys, keeps their UUID v4 ids, skips existing ones', async () => {
    const { user, api } = await renderSections(
      async (key) => new FakeNotesApi([await sealNote(key, { title: 'Already here' }, { id: existingId })]),
    );
    await user.upload(
      screen.getByLabelText('Choose backup file'),
      file({
        version: '1.0',
        notes: [
          { id: existingId, title: 'Already here', content: '', tags: [] },
          { id: newId, title: 'Imported one', content: 'Body one', tags: ['x'] },
          { id: 'legacy-object-id', title: 'Imported two', content: 'Body two', tags: [] },
        ],
      }),
    );
    expect(
      await screen.findByText(
        'Successfully imported 2 notes from backup file. 1 note was already in your vault and skipped.',
      ),
    ).toBeTruthy();
    // One POST /api/notes/batch for both.
    const posts = api.calls('POST /api/notes/batch');
    expect(posts).toHaveLength(1);
    expect(api.calls('POST /api/notes')).toHaveLength(0);
    const sent = (posts[0]!.body as { notes: { id: string }[] }).notes;
    expect(sent).toHaveLength(2);
    const ids = sent.map((n) => n.id);
    expect(ids).toContain(newId);
    expect(
      ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    expect(JSON.stringify(posts.map((p) => p.body))).not.toMatch(/Imported|Body/);
    // The sidebar's counts follow.
    expect(await screen.findByText('Sidebar: 3 notes, 0 deleted')).toBeTruthy();
  });

  it("'All notes from the backup already exist in your vault.' (the trash counts as existing)", async () => {
    const { user, api } = await renderSections(
      async (key) =>
        new FakeNotesApi(
          [await sealNote(key, { title: 'Active' }, { id: existingId })],
          [await sealNote(key, { title: 'Trashed' }, { id: newId, deletedAt: '2026-05-01T00:00:00.000Z' })],
        ),
    );
    await user.upload(
      screen.getByLabelText('Choose backup file'),
      file({
        notes: [
          { id: existingId, title: 'Active' },
          { id: newId, title: 'Trashed' },
        ],
      }),
    );
    expect(await screen.findByText('All notes from the backup already exist in your vault.')).toBeTruthy();
    expect(api.calls('POST /api/notes/batch')).toHaveLength(0);
  });

  it("'Failed to import data: Invalid backup file format' for a file that is not a backup", async () => {
    const { user } = await renderSections(async () => new FakeNotesApi());
    await user.upload(screen.getByLabelText('Choose backup file'), file('{"version":"1.0","items":[]}'));
    expect(await screen.findByText('Failed to import data: Invalid backup file format')).toBeTruthy();
    await user.upload(screen.getByLabelText('Choose backup file'), file('not json at all'));
    expect(await screen.findByText('Failed to import data: Invalid backup file format')).toBeTruthy();
  });

  it('an encrypted backup asks for its password; a wrong one is said plainly; the right one imports', async () => {
    const envelope = await sealBackup(
      'the export password',
      JSON.stringify({
        version: '1.0',
        notes: [{ id: newId, title: 'From the vault file', content: 'c', tags: [] }],
      }),
      FLOOR,
    );
    const { user, api } = await renderSections(async () => new FakeNotesApi());
    await user.upload(
      screen.getByLabelText('Choose backup file'),
      file(envelope, 'vault-backup.encrypted.json'),
    );
    expect(
      await screen.findByText('This backup is encrypted. Enter the password it was exported with.'),
    ).toBeTruthy();
    await user.type(screen.getByLabelText('Backup password'), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Decrypt and import' }));
    expect(
      await screen.findByText(
        'Failed to import data: The password is wrong, or the file was changed after it was exported.',
      ),
    ).toBeTruthy();
    expect(api.calls('POST /api/notes/batch')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Backup password'));
    await user.type(screen.getByLabelText('Backup password'), 'the export password');
    await user.click(screen.getByRole('button', { name: 'Decrypt and import' }));
    expect(await screen.findByText('Successfully imported 1 note from backup file.')).toBeTruthy();
    expect((api.calls('POST /api/notes/batch')[0]!.body as { notes: { id: string }[] }).notes[0]!.id).toBe(
      newId,
    );
  });

  describe('keeps what the backup says: each note’s dates and the file’s order', () => {
    const id = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
    const tie = '2021-02-01T08:00:00.000Z';
    // Newest updatedAt first, as an export writes it; the three of one date in an order their ids would not give.
    const backupNotes = [
      {
        id: id(5),
        title: 'Newest',
        content: 'n',
        tags: ['a'],
        createdAt: '2020-12-01T00:00:00.000Z',
        updatedAt: '2021-03-01T10:00:00.123Z',
      },
      {
        id: id(1),
        title: 'Tie one',
        content: '1',
        tags: [],
        createdAt: '2021-01-01T00:00:00.000Z',
        updatedAt: tie,
      },
      {
        id: id(3),
        title: 'Tie two',
        content: '2',
        tags: [],
        createdAt: '2021-01-02T00:00:00.000Z',
        updatedAt: tie,
      },
      { id: id(2), title: 'Tie three', content: '3', tags: [], createdAt: tie, updatedAt: tie },
      {
        id: id(4),
        title: 'Oldest',
        content: 'o',
        tags: [],
        createdAt: '2020-01-01T00:00:00.000Z',
        updatedAt: '2020-06-30T23:59:59.999Z',
      },
    ];
    const backup = { version: '1.0', notes: backupNotes };

    async function exportedNotes(
      user: Awaited<ReturnType<typeof renderSections>>['user'],
      downloads: Array<{ body: string }>,
    ) {
      await user.click(screen.getByRole('button', { name: 'Export Notes' }));
      await screen.findByText(/^Exported 5 notes to vault-backup-/);
      return (JSON.parse(downloads[downloads.length - 1]!.body) as { notes: unknown[] }).notes;
    }

    it('a plain backup: sent with its dates, batch after batch, and exported again exactly as it was', async () => {
      const { user, api, downloads } = await renderSections(async () => new FakeNotesApi());
      await user.upload(screen.getByLabelText('Choose backup file'), file(backup));
      expect(await screen.findByText('Successfully imported 5 notes from backup file.')).toBeTruthy();
      const sent = api
        .calls('POST /api/notes/batch')
        .flatMap((c) => (c.body as { notes: Record<string, unknown>[] }).notes);
      expect(sent.map((n) => [n['id'], n['createdAt'], n['updatedAt']])).toEqual(
        backupNotes.map((n) => [n.id, n.createdAt, n.updatedAt]),
      );
      expect(await exportedNotes(user, downloads)).toEqual(backupNotes);
    });

    it('an encrypted backup: the same', async () => {
      const envelope = await sealBackup('the export password', JSON.stringify(backup), FLOOR);
      const { user, downloads } = await renderSections(async () => new FakeNotesApi());
      await user.upload(
        screen.getByLabelText('Choose backup file'),
        file(envelope, 'vault-backup.encrypted.json'),
      );
      await user.type(await screen.findByLabelText('Backup password'), 'the export password');
      await user.click(screen.getByRole('button', { name: 'Decrypt and import' }));
      expect(await screen.findByText('Successfully imported 5 notes from backup file.')).toBeTruthy();
      expect(await exportedNotes(user, downloads)).toEqual(backupNotes);
    });
  });

  it('shows progress while importing', async () => {
    const { user, api } = await renderSections(async () => new FakeNotesApi());
    api.hold('POST /api/notes/batch');
    const notes = Array.from({ length: 150 }, (_, i) => ({ title: `Bulk ${i}`, content: '', tags: [] }));
    await user.upload(screen.getByLabelText('Choose backup file'), file({ notes }));
    expect(await screen.findByText('Importing 0 of 150 notes...')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Import progress' })).toBeTruthy();
    api.release('POST /api/notes/batch');
    expect(await screen.findByText('Successfully imported 150 notes from backup file.')).toBeTruthy();
    // Two requests (100 + 50) instead of one per note.
    expect(
      api.calls('POST /api/notes/batch').map((c) => (c.body as { notes: unknown[] }).notes.length),
    ).toEqual([100, 50]);
  });
});
