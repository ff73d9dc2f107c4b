import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeFilesApi, makeVaultKey, renderFiles, sealFile } from '../testing/files-harness';
import { formatFileDate } from '../utils/file-format';
import { FILE_MESSAGES } from '../utils/file-rules';
import { FilesRoute } from './files-page';
import { SCAN_TEXT } from './scan-badge';

const routes = [{ path: '/files', element: <FilesRoute /> }];

async function setup(make: (key: CryptoKey) => Promise<FakeFilesApi>) {
  const key = await makeVaultKey();
  const api = await make(key);
  return renderFiles(routes, { path: '/files', api, vaultKey: key });
}

const cards = () => screen.queryAllByRole('article');
const card = (name: string) => screen.getByRole('article', { name });
const at = (minutesAgo: number) =>
  new Date(Date.parse('2026-06-01T12:00:00.000Z') - minutesAgo * 60_000).toISOString();

let created = 0;
beforeEach(() => {
  created = 0;
  URL.createObjectURL = vi.fn(() => `blob:thumbnail-${++created}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  delete (URL as { createObjectURL?: unknown }).createObjectURL;
  delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
});

describe('FilesPage (File Vault)', () => {
  it("shows 'Loading your files...', then the cards: name, size, date, tags with '+N more', scan badge", async () => {
    const { api } = await setup(async (key) => {
      const api = new FakeFilesApi([
        await sealFile(
          key,
          {
            name: 'Tax Return 2025.pdf',
            mimeType: 'application/pdf',
            tags: ['taxes', 'home', '2025', 'irs', 'w2'],
          },
          { size: 1536, uploadedAt: at(1) },
        ),
        await sealFile(
          key,
          { name: 'holiday.png', mimeType: 'image/png' },
          { size: 5 * 1024 * 1024, uploadedAt: at(2) },
        ),
      ]);
      api.hold('GET /api/files');
      return api;
    });
    expect(screen.getByText('Loading your files...')).toBeTruthy();
    act(() => api.release('GET /api/files'));
    expect(await screen.findByRole('heading', { name: 'File Vault (2)' })).toBeTruthy();
    expect(screen.getByText('End-to-end encrypted')).toBeTruthy();
    await screen.findByRole('article', { name: 'Tax Return 2025.pdf' });
    const [first, second] = cards();
    const one = within(first!);
    expect(one.getByText('1.5 KB')).toBeTruthy();
    expect(first!.querySelector('time')?.textContent).toBe(formatFileDate(at(1)));
    expect(one.getByText('taxes')).toBeTruthy();
    expect(one.getByText('2025')).toBeTruthy();
    expect(one.queryByText('irs')).toBeNull();
    expect(one.getByText('+2 more')).toBeTruthy();
    expect(within(second!).getByText('5 MB')).toBeTruthy();
    expect(within(second!).getByRole('heading', { name: 'holiday.png' })).toBeTruthy();
  });

  it("the scan badge never claims 'clean': Checked (with what was checked), Scanning…, Check failed, Infected", async () => {
    await setup(
      async (key) =>
        new FakeFilesApi([
          await sealFile(key, { name: 'clean.txt' }, { uploadedAt: at(1), virusScanResult: 'clean' }),
          await sealFile(key, { name: 'new.txt' }, { uploadedAt: at(2), virusScanResult: 'pending' }),
          await sealFile(key, { name: 'odd.txt' }, { uploadedAt: at(3), virusScanResult: 'error' }),
          await sealFile(
            key,
            { name: 'bad.zip', mimeType: 'application/zip' },
            { uploadedAt: at(4), virusScanResult: 'infected' },
          ),
        ]),
    );
    await screen.findByRole('article', { name: 'clean.txt' });
    const badge = within(card('clean.txt')).getByText('Checked');
    expect(badge.getAttribute('title')).toBe(SCAN_TEXT.clean.description);
    expect(SCAN_TEXT.clean.description).toMatch(/size and chunk framing/);
    expect(SCAN_TEXT.clean.description).toMatch(/cannot examine/);
    expect(screen.queryByText(/^clean$/i)).toBeNull();
    expect(within(card('new.txt')).getByText('Scanning…')).toBeTruthy();
    expect(within(card('odd.txt')).getByText('Check failed')).toBeTruthy();

    const infected = within(card('bad.zip'));
    expect(infected.getByText('Infected')).toBeTruthy();
    expect(infected.getByText('File is infected and cannot be downloaded')).toBeTruthy();
    expect((infected.getByRole('button', { name: 'Preview bad.zip' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((infected.getByRole('button', { name: 'Download bad.zip' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(
      (within(card('clean.txt')).getByRole('button', { name: 'Download clean.txt' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });

  it("a file whose name cannot be decrypted is shown as 'Encrypted File'", async () => {
    await setup(async (key) => {
      const other = await makeVaultKey();
      return new FakeFilesApi([
        await sealFile(key, { name: 'mine.txt' }, { uploadedAt: at(1) }),
        await sealFile(other, { name: 'foreign.txt' }, { uploadedAt: at(2) }),
      ]);
    });
    expect(await screen.findByRole('article', { name: 'Encrypted File' })).toBeTruthy();
    expect(
      within(card('Encrypted File')).getByRole('button', { name: 'Preview Encrypted File' }),
    ).toHaveProperty('disabled', true);
    // Said plainly on the card, not only by its icon; nothing of the other key's file shows.
    expect(within(card('Encrypted File')).getByText(FILE_MESSAGES.metadataFailed)).toBeTruthy();
    expect(screen.queryByText('foreign.txt')).toBeNull();
    expect(within(card('mine.txt')).queryByText(FILE_MESSAGES.metadataFailed)).toBeNull();
  });

  it("searches the decrypted names case-insensitively ('Search files...'), with 'No files match your search'", async () => {
    const { user } = await setup(
      async (key) =>
        new FakeFilesApi([
          await sealFile(
            key,
            { name: 'Quarterly REPORT.pdf', mimeType: 'application/pdf' },
            { uploadedAt: at(1) },
          ),
          await sealFile(key, { name: 'cat.png', mimeType: 'image/png' }, { uploadedAt: at(2) }),
          await sealFile(key, { name: 'report-draft.txt' }, { uploadedAt: at(3) }),
        ]),
    );
    await screen.findByRole('heading', { name: 'File Vault (3)' });
    const search = screen.getByPlaceholderText('Search files...');
    expect(screen.getByRole('searchbox', { name: 'Search files' })).toBe(search);
    await user.type(search, 'report');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByText('2 matching')).toBeTruthy();
    // The title keeps the number of files.
    expect(screen.getByRole('heading', { name: 'File Vault (3)' })).toBeTruthy();
    await user.clear(search);
    await user.type(search, 'nothing like it');
    expect(await screen.findByText('No files match your search')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
  });

  it("tag filter: 'All tags' and every decrypted tag, sorted", async () => {
    const { user } = await setup(
      async (key) =>
        new FakeFilesApi([
          await sealFile(key, { name: 'a.txt', tags: ['work', 'urgent'] }, { uploadedAt: at(1) }),
          await sealFile(key, { name: 'b.txt', tags: ['home'] }, { uploadedAt: at(2) }),
          await sealFile(key, { name: 'c.txt' }, { uploadedAt: at(3) }),
        ]),
    );
    await screen.findByRole('article', { name: 'a.txt' });
    const select = screen.getByRole('combobox', { name: 'Filter by tag' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['All tags', 'home', 'urgent', 'work']);
    await user.selectOptions(select, 'home');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(card('b.txt')).toBeTruthy();
    await user.selectOptions(select, 'All tags');
    await waitFor(() => expect(cards()).toHaveLength(3));
  });

  it("'No files uploaded' when the vault has no files", async () => {
    await setup(async () => new FakeFilesApi());
    expect(await screen.findByText('No files uploaded')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'File Vault (0)' })).toBeTruthy();
  });

  it("'Failed to load files' with Retry", async () => {
    const { user } = await setup(async (key) =>
      new FakeFilesApi([await sealFile(key, { name: 'later.txt' })]).unavailable('GET /api/files'),
    );
    expect(await screen.findByText('Failed to load files: Service unavailable')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'later.txt' })).toBeTruthy();
  });

  it('deletes a file after the confirmation; it moves to the trash', async () => {
    const { user, api } = await setup(
      async (key) =>
        new FakeFilesApi([
          await sealFile(key, { name: 'old.txt' }, { uploadedAt: at(1) }),
          await sealFile(key, { name: 'keep.txt' }, { uploadedAt: at(2) }),
        ]),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete old.txt' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Move to trash' });
    expect(
      within(confirm).getByText('Are you sure you want to delete this file? It will be moved to trash.'),
    ).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE /api/files/:id')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete old.txt' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(cards()).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'File Vault (1)' })).toBeTruthy();
    expect(api.deleted.map((f) => f.id)).toHaveLength(1);
  });

  it("'Failed to delete file' stays in the confirmation", async () => {
    const { user } = await setup(async (key) =>
      new FakeFilesApi([await sealFile(key, { name: 'stuck.txt' })]).unavailable('DELETE /api/files/:id'),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete stuck.txt' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    expect(await screen.findByText('Failed to delete file: Service unavailable')).toBeTruthy();
    expect(card('stuck.txt')).toBeTruthy();
  });

  it('shows the decrypted thumbnail of an image', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2, 3]);
    const { api } = await setup(
      async (key) =>
        new FakeFilesApi([
          await sealFile(key, { name: 'cat.jpg', mimeType: 'image/jpeg' }, { thumbnail: jpeg }),
        ]),
    );
    await screen.findByRole('article', { name: 'cat.jpg' });
    await waitFor(() =>
      expect(card('cat.jpg').querySelector('img')?.getAttribute('src')).toBe('blob:thumbnail-1'),
    );
    expect(api.calls('GET /api/files/:id/optimized')).toHaveLength(1);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob;
    expect(blob.type).toBe('image/jpeg');
  });

  it('Download and Preview ask for the password first (file access)', async () => {
    const { user } = await setup(async (key) => new FakeFilesApi([await sealFile(key, { name: 'doc.txt' })]));
    await user.click(await screen.findByRole('button', { name: 'Download doc.txt' }));
    expect(await screen.findByRole('dialog', { name: 'Authenticate Download' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Preview doc.txt' }));
    expect(await screen.findByRole('dialog', { name: 'Authenticate Preview' })).toBeTruthy();
  });
});
