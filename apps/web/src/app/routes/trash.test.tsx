import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FilesRoute } from '../../features/files/components/files-page';
import { FakeFilesApi, renderFiles, sealFile } from '../../features/files/testing/files-harness';
import { formatFileDate } from '../../features/files/utils/file-format';
import { VaultPage } from '../../features/notes/components/vault-page';
import { FakeNotesApi, makeVaultKey, sealNote } from '../../features/notes/testing/notes-harness';
import { formatNoteDate } from '../../features/notes/utils/note-format';
import { TrashRoute } from './trash';

const routes = [
  { path: '/trash', element: <TrashRoute /> },
  { path: '/vault', element: <VaultPage /> },
  { path: '/files', element: <FilesRoute /> },
];

/** The trash over both fake APIs: notes (`api`) and files (`files`), with the real crypto. */
async function setup(
  make: (key: CryptoKey) => Promise<FakeNotesApi>,
  makeFiles: (key: CryptoKey) => Promise<FakeFilesApi> = async () => new FakeFilesApi(),
  path = '/trash',
) {
  const key = await makeVaultKey();
  const api = await make(key);
  const files = await makeFiles(key);
  const view = await renderFiles(routes, { path, api: files, otherApi: api, vaultKey: key });
  return { ...view, api, files };
}

/** Empty Trash, once both lists have loaded (it is disabled until then). */
async function emptyTrashButton(): Promise<HTMLButtonElement> {
  const button = (await screen.findByRole('button', { name: 'Empty Trash' })) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  return button;
}

/** Clicks `name` in the confirmation that is open. */
async function confirmWith(user: { click: (element: Element) => Promise<void> }, name: string) {
  await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name }));
}

const trashed = (key: CryptoKey, title: string, content: string, deletedAt: string) =>
  sealNote(key, { title, content }, { deletedAt, updatedAt: '2026-01-01T00:00:00.000Z' });

const deletedFile = (
  key: CryptoKey,
  name: string,
  size: number,
  deletedAt: string,
  mimeType = 'text/plain',
) => sealFile(key, { name, mimeType }, { size, deletedAt });

/** The trash holding notes with these titles (and no content), newest first. */
const notesInTrash = (...titles: string[]) =>
  setup(
    async (key) =>
      new FakeNotesApi(
        [],
        await Promise.all(
          titles.map((title, i) => trashed(key, title, '', `2026-05-0${3 - i}T10:00:00.000Z`)),
        ),
      ),
  );

/** The trash with one deleted note or file called `name`; its API answers `refused` (a route) with 503. */
function oneInTrash(kind: 'note' | 'file', name: string, refused?: string) {
  const deletedAt = '2026-05-03T10:00:00.000Z';
  const refuse = <A extends FakeNotesApi | FakeFilesApi>(api: A): A => {
    if (refused) api.unavailable(refused);
    return api;
  };
  return kind === 'note'
    ? setup(async (key) => refuse(new FakeNotesApi([], [await trashed(key, name, '', deletedAt)])))
    : setup(
        async () => new FakeNotesApi(),
        async (key) => refuse(new FakeFilesApi([], [await deletedFile(key, name, 100, deletedAt)])),
      );
}

describe('TrashPage', () => {
  it("lists deleted notes: 'Trash (count)', title or 'Untitled', 100-character preview or 'No content', deleted date", async () => {
    await setup(
      async (key) =>
        new FakeNotesApi(
          [],
          [
            await trashed(key, 'Old plan', 'P'.repeat(130), '2026-05-02T10:00:00.000Z'),
            await trashed(key, '', '', '2026-05-01T10:00:00.000Z'),
          ],
        ),
    );
    expect(await screen.findByRole('heading', { name: 'Trash (2)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Deleted Notes (2)' })).toBeTruthy();
    // No deleted files: no Deleted Files section.
    expect(screen.queryByText(/Deleted Files/)).toBeNull();
    const [first, second] = screen.getAllByRole('article');
    expect(within(first!).getByRole('heading', { name: 'Old plan' })).toBeTruthy();
    expect(within(first!).getByText('P'.repeat(100) + '…')).toBeTruthy();
    expect(first!.querySelector('time')?.textContent).toBe(
      `Deleted ${formatNoteDate('2026-05-02T10:00:00.000Z')}`,
    );
    expect(within(second!).getByRole('heading', { name: 'Untitled' })).toBeTruthy();
    expect(within(second!).getByText('No content')).toBeTruthy();
  });

  it("'Trash is empty' with nothing deleted, and Empty Trash disabled", async () => {
    await setup(async () => new FakeNotesApi());
    expect(await screen.findByText('Trash is empty')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Trash (0)' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Empty Trash' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes one note permanently after the confirmation', async () => {
    const { user, api } = await notesInTrash('Gone for good', 'Keep in trash');
    await user.click(await screen.findByRole('button', { name: 'Delete Gone for good permanently' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete permanently' });
    expect(
      within(confirm).getByText('Are you sure? This will permanently delete the note and cannot be undone.'),
    ).toBeTruthy();
    // Focus starts on Cancel: a stray Enter destroys nothing.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE /api/notes/:id/permanent')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Gone for good permanently' }));
    await confirmWith(user, 'Delete permanently');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByText('Gone for good')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Trash (1)' })).toBeTruthy();
    expect(api.deleted.map((n) => n.id)).toHaveLength(1);
  });

  it("Empty Trash asks 'permanently delete all N items in trash' and empties it", async () => {
    const { user, api } = await notesInTrash('One', 'Two', 'Three');
    await screen.findByRole('heading', { name: 'Trash (3)' });
    await user.click(await emptyTrashButton());
    const confirm = screen.getByRole('alertdialog', { name: 'Empty trash' });
    expect(confirm.textContent).toContain('permanently delete all 3 items in trash');
    expect(
      within(confirm).getByText(
        'Are you sure? This will permanently delete all 3 items in trash and cannot be undone.',
      ),
    ).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Empty Trash' }));
    expect(await screen.findByText('Trash is empty')).toBeTruthy();
    expect(api.calls('DELETE /api/notes/trash')).toHaveLength(1);
    expect(api.deleted).toHaveLength(0);
  });

  it("'Failed to empty trash'", async () => {
    const { user } = await oneInTrash('note', 'One', 'DELETE /api/notes/trash');
    await user.click(await emptyTrashButton());
    await confirmWith(user, 'Empty Trash');
    expect(await screen.findByText('Failed to empty trash: Service unavailable')).toBeTruthy();
  });

  it("'Failed to load deleted items' with Retry", async () => {
    const { user } = await oneInTrash('note', 'Later', 'GET /api/notes/deleted');
    expect(await screen.findByText('Failed to load deleted items')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Later' })).toBeTruthy();
  });

  it('a deleted note that cannot be decrypted is said so, and can still be restored', async () => {
    await setup(async () => {
      const other = await makeVaultKey();
      return new FakeNotesApi([], [await trashed(other, 'Foreign', 'x', '2026-05-03T10:00:00.000Z')]);
    });
    expect(await screen.findByRole('heading', { name: 'Failed to decrypt note' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restore Failed to decrypt note' })).toBeTruthy();
  });

  it('a note deleted in the vault appears in the trash', async () => {
    const { user, router } = await setup(
      async (key) => new FakeNotesApi([await sealNote(key, { title: 'Moving on' })]),
      undefined,
      '/vault',
    );
    await user.click(await screen.findByRole('button', { name: 'Moving on' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete note' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await router.navigate('/trash');
    expect(await screen.findByRole('heading', { name: 'Moving on' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Trash (1)' })).toBeTruthy();
  });
});

describe('TrashPage: deleted files', () => {
  it("lists them under 'Deleted Files': decrypted name, size in KB, deleted date; 'Trash (count)' counts notes and files", async () => {
    await setup(
      async (key) => new FakeNotesApi([], [await trashed(key, 'Old plan', 'x', '2026-05-02T10:00:00.000Z')]),
      async (key) =>
        new FakeFilesApi(
          [],
          [
            await deletedFile(key, 'Invoice.pdf', 3 * 1024, '2026-05-04T10:00:00.000Z', 'application/pdf'),
            await deletedFile(key, 'notes.txt', 512, '2026-05-03T10:00:00.000Z'),
          ],
        ),
    );
    expect(await screen.findByRole('heading', { name: 'Trash (3)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Deleted Notes (1)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Deleted Files (2)' })).toBeTruthy();
    const invoice = screen.getByRole('article', { name: 'Invoice.pdf' });
    expect(within(invoice).getByText('3 KB')).toBeTruthy();
    expect(invoice.querySelector('time')?.textContent).toBe(
      `Deleted ${formatFileDate('2026-05-04T10:00:00.000Z')}`,
    );
    expect(within(screen.getByRole('article', { name: 'notes.txt' })).getByText('0.5 KB')).toBeTruthy();
  });

  it("a file whose name cannot be decrypted is 'Encrypted File'", async () => {
    await setup(
      async () => new FakeNotesApi(),
      async () => {
        const other = await makeVaultKey();
        return new FakeFilesApi(
          [],
          [await deletedFile(other, 'foreign.txt', 100, '2026-05-04T10:00:00.000Z')],
        );
      },
    );
    expect(await screen.findByRole('article', { name: 'Encrypted File' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restore Encrypted File' })).toBeTruthy();
  });

  it("deletes a file permanently after 'Are you sure? This will permanently delete the file and cannot be undone.'", async () => {
    const { user, files } = await setup(
      async () => new FakeNotesApi(),
      async (key) =>
        new FakeFilesApi(
          [],
          [
            await deletedFile(key, 'Gone.txt', 100, '2026-05-04T10:00:00.000Z'),
            await deletedFile(key, 'Stay.txt', 100, '2026-05-03T10:00:00.000Z'),
          ],
        ),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete Gone.txt permanently' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete permanently' });
    expect(
      within(confirm).getByText('Are you sure? This will permanently delete the file and cannot be undone.'),
    ).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Delete permanently' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('article', { name: 'Gone.txt' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Trash (1)' })).toBeTruthy();
    expect(files.calls('DELETE /api/files/:id/permanent')).toHaveLength(1);
    expect(files.deleted).toHaveLength(1);
  });

  it('Empty Trash covers notes and files: the count is both, and both trash endpoints are called', async () => {
    const { user, api, files } = await setup(
      async (key) =>
        new FakeNotesApi(
          [],
          [
            await trashed(key, 'One', '', '2026-05-03T10:00:00.000Z'),
            await trashed(key, 'Two', '', '2026-05-02T10:00:00.000Z'),
          ],
        ),
      async (key) => new FakeFilesApi([], [await deletedFile(key, 'f.txt', 100, '2026-05-04T10:00:00.000Z')]),
    );
    await screen.findByRole('heading', { name: 'Trash (3)' });
    await user.click(await emptyTrashButton());
    const confirm = screen.getByRole('alertdialog', { name: 'Empty trash' });
    expect(confirm.textContent).toContain('permanently delete all 3 items in trash');
    await user.click(within(confirm).getByRole('button', { name: 'Empty Trash' }));
    expect(await screen.findByText('Trash is empty')).toBeTruthy();
    expect(api.calls('DELETE /api/notes/trash')).toHaveLength(1);
    expect(files.calls('DELETE /api/files/trash')).toHaveLength(1);
    expect(api.deleted).toHaveLength(0);
    expect(files.deleted).toHaveLength(0);
    expect(screen.getByText('Trash emptied: 3 items permanently deleted.')).toBeTruthy();
  });

  it("'Failed to empty trash' when the files half fails: the notes are gone, the files stay", async () => {
    const { user } = await setup(
      async (key) => new FakeNotesApi([], [await trashed(key, 'Note', '', '2026-05-03T10:00:00.000Z')]),
      async (key) =>
        new FakeFilesApi([], [await deletedFile(key, 'f.txt', 100, '2026-05-04T10:00:00.000Z')]).unavailable(
          'DELETE /api/files/trash',
        ),
    );
    await screen.findByRole('heading', { name: 'Trash (2)' });
    await user.click(await emptyTrashButton());
    await confirmWith(user, 'Empty Trash');
    expect(await screen.findByText('Failed to empty trash: Service unavailable')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: 'Trash (1)' })).toBeTruthy();
    expect(screen.getByRole('article', { name: 'f.txt' })).toBeTruthy();
  });

  it("'Failed to load deleted items' when the files trash does not load; the notes are still shown", async () => {
    const { user } = await setup(
      async (key) => new FakeNotesApi([], [await trashed(key, 'Visible', '', '2026-05-03T10:00:00.000Z')]),
      async (key) =>
        new FakeFilesApi(
          [],
          [await deletedFile(key, 'later.txt', 100, '2026-05-04T10:00:00.000Z')],
        ).unavailable('GET /api/files/deleted'),
    );
    expect(await screen.findByText('Failed to load deleted items')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Visible' })).toBeTruthy();
    expect(screen.queryByText('Trash is empty')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'later.txt' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Trash (2)' })).toBeTruthy();
  });

  it('a file deleted in the File Vault appears in the trash', async () => {
    const { user, router } = await setup(
      async () => new FakeNotesApi(),
      async (key) => new FakeFilesApi([await sealFile(key, { name: 'Moving.txt' })]),
      '/files',
    );
    await user.click(await screen.findByRole('button', { name: 'Delete Moving.txt' }));
    await confirmWith(user, 'Move to trash');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await router.navigate('/trash');
    expect(await screen.findByRole('article', { name: 'Moving.txt' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Trash (1)' })).toBeTruthy();
  });
});

describe.each([
  { kind: 'note', name: 'Stuck', base: '/api/notes', home: '/vault', role: 'button' },
  { kind: 'file', name: 'Stuck.txt', base: '/api/files', home: '/files', role: 'article' },
] as const)('TrashPage: a deleted $kind', ({ kind, name, base, home, role }) => {
  it(`is restored: it leaves the trash and is back in ${home}`, async () => {
    const { user, api, files, router } = await oneInTrash(kind, name);
    await user.click(await screen.findByRole('button', { name: `Restore ${name}` }));
    expect(await screen.findByText('Trash is empty')).toBeTruthy();
    const owner = kind === 'note' ? api : files;
    expect(owner.calls(`POST ${base}/:id/restore`)).toHaveLength(1);
    expect(owner.active).toHaveLength(1);
    await router.navigate(home);
    expect(await screen.findByRole(role, { name })).toBeTruthy();
  });

  it(`'Failed to restore ${kind}', and it stays in the trash`, async () => {
    const { user } = await oneInTrash(kind, name, `POST ${base}/:id/restore`);
    await user.click(await screen.findByRole('button', { name: `Restore ${name}` }));
    expect(await screen.findByText(`Failed to restore ${kind}: Service unavailable`)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Trash (1)' })).toBeTruthy();
  });

  it(`'Failed to permanently delete ${kind}' stays in the confirmation`, async () => {
    const { user } = await oneInTrash(kind, name, `DELETE ${base}/:id/permanent`);
    await user.click(await screen.findByRole('button', { name: `Delete ${name} permanently` }));
    await confirmWith(user, 'Delete permanently');
    expect(
      await within(await screen.findByRole('alertdialog')).findByText(
        `Failed to permanently delete ${kind}: Service unavailable`,
      ),
    ).toBeTruthy();
  });
});
