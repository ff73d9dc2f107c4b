import { act, screen, waitFor, within } from '@testing-library/react';
import { decryptFileMetadata } from '@vault/crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FakeFilesApi,
  makeVaultKey,
  renderFiles,
  sealFile,
  storageTypesAnswer,
} from '../testing/files-harness';
import { FilesRoute } from './files-page';
import { defaultStorage } from './upload-storage';

const routes = [{ path: '/files', element: <FilesRoute /> }];
const MB = 1024 * 1024;

async function setup(make: (key: CryptoKey) => Promise<FakeFilesApi> = async () => new FakeFilesApi()) {
  const key = await makeVaultKey();
  const api = await make(key);
  const view = await renderFiles(routes, { path: '/files', api, vaultKey: key });
  await screen.findByRole('heading', { name: /^File Vault \(/ });
  return view;
}

const fileOf = (name: string, size: number, type: string) => {
  const file = new File([new Uint8Array(Math.min(size, 4096))], name, { type });
  if (size > 4096) Object.defineProperty(file, 'size', { value: size });
  return file;
};

async function openDialog(user: Awaited<ReturnType<typeof setup>>['user']) {
  await user.click(screen.getAllByRole('button', { name: 'Upload Files' })[0]!);
  return screen.findByRole('dialog', { name: 'Upload Files' });
}

/** Node's setImmediate: not faked below, so jsdom's FileReader and React's scheduler keep running. */
const realImmediate = (globalThis as unknown as { setImmediate: (fn: () => void) => void }).setImmediate;

/** Lets real I/O (jsdom's FileReader, promises) run while the fake clock stands still. */
async function settle(check: () => boolean, rounds = 200) {
  for (let i = 0; i < rounds && !check(); i++) {
    await act(async () => {
      await new Promise<void>((resolve) => realImmediate(resolve));
    });
  }
  expect(check()).toBe(true);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('UploadDialog', () => {
  it('shows every storage kind, preselects the default, and shows the encryption notice', async () => {
    const { user } = await setup(async () => {
      const api = new FakeFilesApi();
      api.storageTypes = storageTypesAnswer(['local', 's3', 'cloudinary'], 'cloudinary');
      return api;
    });
    const dialog = await openDialog(user);
    const radios = (await within(dialog).findAllByRole('radio')) as HTMLInputElement[];
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      'Local disk',
      'S3 / R2 / MinIO',
      'Cloudinary',
    ]);
    expect(radios.map((r) => r.disabled)).toEqual([false, false, false]);
    expect(radios.find((r) => r.checked)?.value).toBe('cloudinary');
    expect(within(dialog).getByText('End-to-end encrypted')).toBeTruthy();
    expect(within(dialog).getByText(/encrypted on this device before anything is sent/)).toBeTruthy();
    expect(within(dialog).getByLabelText('Tags (optional)')).toBeTruthy();
    // Escape closes it; focus goes back to the button.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a local-disk-only server: S3 and Cloudinary are shown disabled, each with why and the settings that turn it on', async () => {
    const { user, api } = await setup(async () => {
      const fake = new FakeFilesApi();
      fake.storageTypes = storageTypesAnswer(['local'], 'local');
      return fake;
    });
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio');
    const local = within(dialog).getByRole('radio', { name: 'Local disk' }) as HTMLInputElement;
    const s3 = within(dialog).getByRole('radio', { name: 'S3 / R2 / MinIO' }) as HTMLInputElement;
    const cloudinary = within(dialog).getByRole('radio', { name: 'Cloudinary' }) as HTMLInputElement;
    expect([local.checked, local.disabled]).toEqual([true, false]);
    expect([s3.checked, s3.disabled]).toEqual([false, true]);
    expect([cloudinary.checked, cloudinary.disabled]).toEqual([false, true]);
    // The reason is the radio's description (aria-describedby), the enabled one has none.
    expect(local.getAttribute('aria-describedby')).toBeNull();
    const describedBy = (input: HTMLInputElement) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ');
    expect(describedBy(s3)).toBe(
      'Not configured on this server. To offer it, an administrator sets S3_ENDPOINT, S3_BUCKET, ' +
        'S3_ACCESS_KEY and S3_SECRET_KEY on the files service.',
    );
    expect(describedBy(cloudinary)).toBe(
      'Not configured on this server. To offer it, an administrator sets CLOUDINARY_URL on the files service.',
    );
    // A disabled kind cannot be chosen: the upload goes to the local disk.
    await user.click(cloudinary);
    expect(cloudinary.checked).toBe(false);
    expect(local.checked).toBe(true);
    await user.upload(within(dialog).getByLabelText('Choose files'), [fileOf('a.txt', 10, 'text/plain')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(api.calls('POST /api/files/upload-url')).toHaveLength(1));
    expect(api.calls('POST /api/files/upload-url')[0]!.body).toMatchObject({ storageType: 'local' });
  });

  it('the default storage: the server default when configured, else Cloudinary, else the first configured', () => {
    expect(defaultStorage(storageTypesAnswer(['local', 's3'], 's3'))).toBe('s3');
    expect(defaultStorage(storageTypesAnswer(['local', 'cloudinary'], 's3'))).toBe('cloudinary');
    expect(defaultStorage(storageTypesAnswer(['s3', 'local'], 'cloudinary'))).toBe('local');
    expect(defaultStorage(storageTypesAnswer([], 'local'))).toBeNull();
    expect(defaultStorage(undefined)).toBeNull();
  });

  it("checks files as they are added, with the spec's messages", async () => {
    const { user } = await setup();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText('Choose files'), [
      fileOf('ok.pdf', 1000, 'application/pdf'),
      fileOf('huge.zip', 100 * MB + 1, 'application/zip'),
      fileOf('page.html', 10, 'text/html'),
      fileOf(`${'n'.repeat(260)}.txt`, 10, 'text/plain'),
    ]);
    const list = within(dialog).getByRole('list', { name: 'Files to upload' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByText('Ready to upload')).toBeTruthy();
    expect(within(rows[1]!).getByText('File size exceeds maximum allowed size of 100MB')).toBeTruthy();
    expect(within(rows[2]!).getByText('File type text/html is not allowed')).toBeTruthy();
    expect(within(rows[3]!).getByText('Filename is too long')).toBeTruthy();
    // One file can be sent.
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toHaveProperty('disabled', false);
    await user.click(within(rows[1]!).getByRole('button', { name: 'Remove huge.zip' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });

  it('accepts dropped files', async () => {
    const { user } = await setup();
    const dialog = await openDialog(user);
    const zone = within(dialog).getByTestId('upload-drop-zone');
    const file = fileOf('dropped.txt', 20, 'text/plain');
    await act(async () => {
      zone.dispatchEvent(
        Object.assign(new Event('drop', { bubbles: true }), { dataTransfer: { files: [file] } }),
      );
    });
    expect(within(dialog).getByText('dropped.txt')).toBeTruthy();
  });

  it('uploads with progress bars and statuses; tags are sealed; the list refreshes 1 s after; the dialog closes 2 s after', async () => {
    const { user, api, vaultKey } = await setup();
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio');
    await user.type(within(dialog).getByLabelText('Tags (optional)'), ' work, taxes ,, work');
    await user.upload(within(dialog).getByLabelText('Choose files'), [
      fileOf('Report.pdf', 3000, 'application/pdf'),
    ]);
    api.storage.hold();
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));

    const bar = await within(dialog).findByRole('progressbar', { name: 'Report.pdf: Uploading' });
    // The percent follows within the queue's progress interval (250 ms).
    await vi.waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'));
    expect(bar.getAttribute('aria-valuetext')).toBe('Uploading 50%');
    expect(within(dialog).getByText('Uploading')).toBeTruthy();

    // From here on the clock is fake: the 1 s and 2 s delays are checked exactly.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    act(() => api.storage.release());
    await settle(() => screen.queryByText('Completed') !== null);
    expect(
      screen.getByRole('progressbar', { name: 'Report.pdf: Completed' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    expect(api.calls('POST /api/files/upload-complete')).toHaveLength(1);
    // Tags: trimmed, no empties, no duplicates, and sealed (never in clear text on the wire).
    const body = api.calls('POST /api/files/upload-url')[0]!.body as Record<string, string>;
    expect(JSON.stringify(body)).not.toContain('taxes');
    const meta = await decryptFileMetadata(vaultKey, body['fileId']!, body as never);
    expect(meta).toEqual({ name: 'Report.pdf', mimeType: 'application/pdf', tags: ['work', 'taxes'] });

    // Not refreshed yet; 1 s after the success the list is fetched again and shows the new file.
    const listCalls = api.calls('GET /api/files').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(api.calls('GET /api/files')).toHaveLength(listCalls);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    await settle(() => screen.queryByRole('article', { name: 'Report.pdf' }) !== null);
    expect(api.calls('GET /api/files')).toHaveLength(listCalls + 1);

    // The dialog closes 2 s after the last upload finished (1 s of which has passed).
    expect(screen.getByRole('dialog', { name: 'Upload Files' })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(998);
    });
    expect(screen.getByRole('dialog', { name: 'Upload Files' })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2);
    });
    expect(screen.queryByRole('dialog', { name: 'Upload Files' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'File Vault (1)' })).toBeTruthy();
  });

  it("a failed upload shows 'Upload failed with status {n}' in its row and, after the dialog closed, on the page", async () => {
    const { user, api } = await setup();
    api.storage.fail(503);
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio');
    await user.upload(within(dialog).getByLabelText('Choose files'), [fileOf('a.txt', 100, 'text/plain')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Upload failed with status 503')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload Files' })).toBeNull(), {
      timeout: 3000,
    });
    // The page's banner follows the dialog's close; on a busy machine a render later.
    expect(await screen.findByText('1 file was not uploaded')).toBeTruthy();
    expect(screen.getByText(/Upload failed with status 503/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('1 file was not uploaded')).toBeNull();
  });

  it('Browse Files picks files first and opens the dialog with them ready; uploads continue when it is hidden', async () => {
    const { user, api } = await setup(
      async (key) => new FakeFilesApi([await sealFile(key, { name: 'old.txt' })]),
    );
    api.storage.hold();
    await user.upload(screen.getByLabelText('Browse Files'), [fileOf('one.txt', 10, 'text/plain')]);
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    expect(within(dialog).getByText('one.txt')).toBeTruthy();
    await within(dialog).findAllByRole('radio');
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await within(dialog).findByRole('progressbar', { name: 'one.txt: Uploading' });
    await user.click(within(dialog).getByRole('button', { name: 'Hide' }));
    expect(await screen.findByText('Uploading 1 file...')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show progress' }));
    expect(await screen.findByRole('progressbar', { name: 'one.txt: Uploading' })).toBeTruthy();
    await user.keyboard('{Escape}');
    act(() => api.storage.release());
    expect(await screen.findByRole('article', { name: 'one.txt' }, { timeout: 4000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Uploading 1 file...')).toBeNull());
  });

  it('traps focus inside the dialog', async () => {
    const { user } = await setup();
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio');
    for (let i = 0; i < 12; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });
});
