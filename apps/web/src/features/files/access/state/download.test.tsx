import { bytesToHex, concatBytes, randomBytes } from '@vault/crypto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../../testing/fake-server';
import {
  CORRECT_PASSWORD,
  blobPath,
  captureBlobs,
  channelWorkerCrypto,
  makeVaultKey,
  objectResponse,
  readBlob,
  renderFileAccess,
  sealTestFile,
  type SealedTestFile,
} from '../testing/file-access-harness';

const CHUNK = 65_536;
const INTEGRITY = 'The file failed its integrity check: it was changed or cut short';

async function askToDownload(
  user: ReturnType<typeof import('@testing-library/user-event').default.setup>,
  file: SealedTestFile,
  password = CORRECT_PASSWORD,
) {
  await user.click(screen.getByRole('button', { name: `Download ${file.view.name}` }));
  const dialog = await screen.findByRole('dialog', { name: 'Authenticate Download' });
  await user.type(within(dialog).getByLabelText('Current Password'), password);
  await user.click(within(dialog).getByRole('button', { name: 'Download' }));
  return dialog;
}

const progressText = (file: SealedTestFile) =>
  screen.queryByTestId(`progress-${file.view.dto.id}`)?.textContent ?? null;

/** The server's fetch, telling `seen` about each call first. */
const watchedFetch = (server: { fetch: typeof fetch }, seen: (url: string, init?: RequestInit) => void) =>
  ((input: RequestInfo | URL, init?: RequestInit) => {
    seen(String(input), init);
    return server.fetch(input, init);
  }) as typeof fetch;

describe('file download (FileAccessProvider.requestDownload)', () => {
  let vaultKey: CryptoKey;
  let report: SealedTestFile;

  beforeEach(async () => {
    vaultKey = await makeVaultKey();
    // Several 1 MiB batches of the decryptor (files-chunks.ts), so plaintext arrives in pieces.
    report = await sealTestFile(vaultKey, randomBytes(40 * CHUNK + 4321), {
      name: 'report.bin',
      mimeType: 'application/octet-stream',
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });

  it('asks for the password first, then sends the authKey derived on the device (never the password)', async () => {
    const blobs = captureBlobs();
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    await user.click(screen.getByRole('button', { name: 'Download report.bin' }));
    const dialog = screen.getByRole('dialog', { name: 'Authenticate Download' });
    expect(dialog.textContent).toContain('Enter your password to download "report.bin"');
    expect(server.calls(`POST /api/files/${report.view.dto.id}/download-url`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Current Password'), CORRECT_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(blobs.saved).toHaveLength(1));

    expect(server.calls('POST /api/auth/prelogin')[0]?.body).toEqual({ identifier: 'alice@example.org' });
    const [access] = server.calls(`POST /api/files/${report.view.dto.id}/download-url`);
    expect(access?.body).toEqual({ authKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(server.requests)).not.toContain(CORRECT_PASSWORD);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('streams, decrypts and saves real ciphertext as a Blob; the signed relative URL is fetched from the API origin without credentials', async () => {
    const blobs = captureBlobs();
    const inits: { url: string; init: RequestInit | undefined }[] = [];
    const { FakeServer } = await import('../../../../testing/fake-server');
    const { FakeCryptoService } = await import('../../../../testing/fake-crypto');
    const { fileServer } = await import('../testing/file-access-harness');
    const crypto = new FakeCryptoService();
    const server = fileServer([report], crypto, new FakeServer().withSession());
    const { user } = await renderFileAccess({
      files: [report],
      vaultKey,
      crypto,
      server,
      fetch: watchedFetch(server, (url, init) => inits.push({ url, init })),
    });
    await askToDownload(user, report);
    await waitFor(() => expect(blobs.saved).toHaveLength(1));

    const [saved] = blobs.saved;
    expect(saved?.name).toBe('report.bin');
    expect(bytesToHex(await readBlob(saved!.blob))).toBe(bytesToHex(report.plaintext));

    const get = inits.find((i) => i.url.includes('/api/files/blob/'));
    expect(get?.url).toBe(`${window.location.origin}${blobPath(report.view.dto.id)}?sig=abc`);
    expect(get?.init?.credentials).toBe('omit');
    expect(JSON.stringify(get?.init?.headers ?? {})).not.toMatch(/authorization/i);
  });

  it('shows a running percent at most once per interval, and each new stage at once', async () => {
    const blobs = captureBlobs();
    const { user, log } = await renderFileAccess({
      files: [report],
      vaultKey,
      downloadCrypto: channelWorkerCrypto(),
      // Longer than the whole download: no percent of a stage waits its turn.
      progressIntervalMs: 60_000,
    });
    await askToDownload(user, report);
    await waitFor(() => expect(progressText(report)).toBe('completed 100'));
    expect(blobs.saved).toHaveLength(1);
    await waitFor(() => expect(log.get(report.view.dto.id)?.at(-1)?.stage).toBe('completed'));
    const history = (log.get(report.view.dto.id) ?? []).map((p) => `${p.stage} ${p.percent}`);
    // At most the first report of each stage, and the end: the percents between were never drawn
    // (unthrottled, the same download draws more than three Downloading percents: the test above).
    expect(history[0]).toMatch(/^downloading \d+$/);
    expect(history.at(-1)).toBe('completed 100');
    const stages = history.map((h) => h.split(' ')[0]);
    expect(new Set(stages).size).toBe(stages.length);
  });

  it('reports Downloading (percent of encryptedSize) → Decrypting → Completed, and clears it 3 s after completion', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const blobs = captureBlobs();
    const { user, log } = await renderFileAccess({
      files: [report],
      vaultKey,
      // Through the worker protocol: plaintext arrives chunk by chunk across task boundaries.
      downloadCrypto: channelWorkerCrypto(),
      advanceTimers: (ms) => vi.advanceTimersByTime(ms),
      // Every percent shown (the interval has its own test below).
      progressIntervalMs: 0,
    });
    await askToDownload(user, report);
    await waitFor(() => expect(progressText(report)).toBe('completed 100'));
    expect(blobs.saved).toHaveLength(1);
    await waitFor(() => expect(log.get(report.view.dto.id)?.at(-1)?.stage).toBe('completed'));

    const history = log.get(report.view.dto.id) ?? [];
    const stages = history.map((p) => p.stage).filter((s, i, all) => all[i - 1] !== s);
    expect(stages).toEqual(['downloading', 'decrypting', 'completed']);
    const downloading = history.filter((p) => p.stage === 'downloading').map((p) => p.percent);
    expect(downloading.length).toBeGreaterThan(3);
    expect([...downloading].sort((a, b) => a - b)).toEqual(downloading);
    expect(Math.max(...downloading)).toBeLessThan(100);

    // The fake clock also follows real time (a few ms passed since 'completed' showed): hence the margins.
    act(() => {
      vi.advanceTimersByTime(2800);
    });
    expect(progressText(report)).toBe('completed 100');
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(progressText(report)).toBeNull();
  });

  it('fetches an absolute (S3 presigned) URL as it is', async () => {
    const blobs = captureBlobs();
    const { FakeServer } = await import('../../../../testing/fake-server');
    const { FakeCryptoService } = await import('../../../../testing/fake-crypto');
    const { fileServer } = await import('../testing/file-access-harness');
    const crypto = new FakeCryptoService();
    const server = fileServer([report], crypto, new FakeServer().withSession());
    const presigned = `https://s3.example.test/vault/${report.view.dto.id}?X-Amz-Signature=abc`;
    server
      .on(`POST /api/files/${report.view.dto.id}/download-url`, () =>
        json(200, {
          downloadUrl: presigned,
          size: report.view.dto.size,
          encryptedSize: report.view.dto.encryptedSize,
          expiresAt: '2026-03-14T09:31:53.000Z',
        }),
      )
      .on(`GET /vault/${report.view.dto.id}`, () => objectResponse(report.ciphertext));
    const urls: string[] = [];
    const { user } = await renderFileAccess({
      files: [report],
      vaultKey,
      crypto,
      server,
      fetch: watchedFetch(server, (url) => urls.push(url)),
    });
    await askToDownload(user, report);
    await waitFor(() => expect(blobs.saved).toHaveLength(1));
    expect(urls).toEqual([presigned]);
    expect(bytesToHex(await readBlob(blobs.saved[0]!.blob))).toBe(bytesToHex(report.plaintext));
  });

  it.each([
    ['a tampered byte', (c: Uint8Array) => c.map((b, i) => (i === CHUNK + 100 ? b ^ 1 : b))],
    ['a body cut short at a chunk boundary', (c: Uint8Array) => c.slice(0, 2 * (CHUNK + 16))],
    ['a body cut short mid-chunk', (c: Uint8Array) => c.slice(0, c.length - 10)],
    ['a body with bytes added', (c: Uint8Array) => new Uint8Array([...c, 1, 2, 3])],
  ])('ends %s in the integrity error, and saves nothing', async (_what, mangle) => {
    const blobs = captureBlobs();
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    server.on(`GET ${blobPath(report.view.dto.id)}`, () => objectResponse(mangle(report.ciphertext)));
    await askToDownload(user, report);
    await waitFor(() => expect(progressText(report)).toBe(`error 0 ${INTEGRITY}`));
    expect(screen.getByRole('alert').textContent).toContain(INTEGRITY);
    expect(blobs.saved).toHaveLength(0);
    expect(blobs.created.size).toBe(0);
  });

  it("says 'Failed to download encrypted content: {status}' when the storage refuses", async () => {
    const blobs = captureBlobs();
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    server.on(`GET ${blobPath(report.view.dto.id)}`, () =>
      json(403, { error: 'This link is invalid or has expired' }),
    );
    await askToDownload(user, report);
    await waitFor(() =>
      expect(progressText(report)).toBe('error 0 Failed to download encrypted content: 403'),
    );
    expect(blobs.saved).toHaveLength(0);
  });

  it("says 'Download failed' when the network drops mid-body", async () => {
    const blobs = captureBlobs();
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    server.on(`GET ${blobPath(report.view.dto.id)}`, () => {
      let sent = false;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (!sent) {
              sent = true;
              controller.enqueue(report.ciphertext.slice(0, CHUNK));
              return;
            }
            controller.error(new TypeError('network error'));
          },
        }),
        { status: 200 },
      );
    });
    await askToDownload(user, report);
    await waitFor(() => expect(progressText(report)).toBe('error 0 Download failed'));
    expect(blobs.saved).toHaveLength(0);
  });

  it("says 'Could not get decryption key' when the file key does not open under this vault key", async () => {
    captureBlobs();
    const other = await makeVaultKey();
    const foreign = await sealTestFile(other, 'hello', { name: 'foreign.txt', mimeType: 'text/plain' });
    const { user } = await renderFileAccess({ files: [foreign], vaultKey });
    await askToDownload(user, foreign);
    await waitFor(() => expect(progressText(foreign)).toBe('error 0 Could not get decryption key'));
  });

  it("shows 'Invalid password' on a 401 and keeps the prompt open (the session is not ended)", async () => {
    const { user, server, services } = await renderFileAccess({ files: [report], vaultKey });
    const dialog = await askToDownload(user, report, 'Wrong-password-1');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid password');
    expect(screen.getByRole('dialog', { name: 'Authenticate Download' })).toBeTruthy();
    expect(server.calls('POST /api/auth/refresh')).toHaveLength(0);
    expect(services.session.getState().user).not.toBeNull();
    // A second try with the right password works from the same prompt.
    const blobs = captureBlobs();
    const field = within(dialog).getByLabelText('Current Password');
    await user.clear(field);
    await user.type(field, CORRECT_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(blobs.saved).toHaveLength(1));
  });

  it("shows the server's lockout message with the retry time on a 423", async () => {
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    server.on(`POST /api/files/${report.view.dto.id}/download-url`, () =>
      json(423, {
        error: 'Account Temporarily Locked due to 5 consecutive failed login attempts',
        code: 'ACCOUNT_LOCKED',
        retryAfter: 540,
      }),
    );
    const dialog = await askToDownload(user, report);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Account Temporarily Locked due to 5 consecutive failed login attempts. Try again in 9 minutes.',
    );
  });

  it("says 'Download failed with status {n}' when download-url fails without a message", async () => {
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    server.on(
      `POST /api/files/${report.view.dto.id}/download-url`,
      () => new Response('<html>', { status: 503 }),
    );
    const dialog = await askToDownload(user, report);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Download failed with status 503');
  });

  it("refuses an infected file with 'File is infected and cannot be downloaded', without a prompt", async () => {
    const infected = await sealTestFile(
      vaultKey,
      'X5O!P%@AP',
      { name: 'eicar.txt', mimeType: 'text/plain' },
      { virusScanResult: 'infected' },
    );
    const { user, server } = await renderFileAccess({ files: [infected], vaultKey });
    await user.click(screen.getByRole('button', { name: 'Download eicar.txt' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(progressText(infected)).toBe('error 0 File is infected and cannot be downloaded');
    expect(screen.getByRole('alert').textContent).toContain('File is infected and cannot be downloaded');
    await user.click(screen.getByRole('button', { name: 'Preview eicar.txt' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests.filter((r) => r.path.startsWith('/api/files'))).toHaveLength(0);
  });

  it("says 'Encryption key not available' when the vault is locked", async () => {
    const { user } = await renderFileAccess({ files: [report], vaultKey, locked: true });
    const dialog = await askToDownload(user, report);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Encryption key not available');
  });

  it('closes the failure notice on Dismiss, and the card error with it', async () => {
    captureBlobs();
    const { user, server } = await renderFileAccess({ files: [report], vaultKey });
    server.on(`GET ${blobPath(report.view.dto.id)}`, () => json(404, { error: 'Not found' }));
    await askToDownload(user, report);
    const notice = await screen.findByRole('alert');
    await user.click(within(notice).getByRole('button', { name: /^Dismiss/ }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(progressText(report)).toBeNull();
  });

  describe('with the File System Access API', () => {
    function fakePicker() {
      const written: Uint8Array[] = [];
      const writable = {
        write: vi.fn(async (chunk: Uint8Array) => {
          written.push(chunk.slice());
        }),
        close: vi.fn(async () => undefined),
        abort: vi.fn(async () => undefined),
      };
      const handle = { createWritable: vi.fn(async () => writable) };
      const picker = vi.fn(async (_options?: { suggestedName?: string }) => handle);
      (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = picker;
      const bytes = () => concatBytes(written);
      return { picker, handle, writable, bytes };
    }

    it('streams the verified plaintext to the picked file and closes it', async () => {
      const blobs = captureBlobs();
      const fs = fakePicker();
      const { user } = await renderFileAccess({ files: [report], vaultKey });
      await askToDownload(user, report);
      await waitFor(() => expect(fs.writable.close).toHaveBeenCalledTimes(1));
      expect(fs.picker).toHaveBeenCalledWith({ suggestedName: 'report.bin' });
      expect(fs.handle.createWritable).toHaveBeenCalledWith({ keepExistingData: false });
      expect(bytesToHex(fs.bytes())).toBe(bytesToHex(report.plaintext));
      expect(fs.writable.write.mock.calls.length).toBeGreaterThan(1);
      expect(fs.writable.abort).not.toHaveBeenCalled();
      expect(blobs.saved).toHaveLength(0);
      await waitFor(() => expect(progressText(report)).toBe('completed 100'));
    });

    it('aborts the writable (the partial file is discarded) when the object was tampered with', async () => {
      captureBlobs();
      const fs = fakePicker();
      const { user, server } = await renderFileAccess({ files: [report], vaultKey });
      const bad = report.ciphertext.map((b, i) => (i === 2 * CHUNK + 40 ? b ^ 0x80 : b));
      server.on(`GET ${blobPath(report.view.dto.id)}`, () => objectResponse(bad));
      await askToDownload(user, report);
      await waitFor(() => expect(fs.writable.abort).toHaveBeenCalledTimes(1));
      expect(fs.writable.close).not.toHaveBeenCalled();
      await waitFor(() => expect(progressText(report)).toBe(`error 0 ${INTEGRITY}`));
    });

    it('cancels the download when the picker is closed', async () => {
      const blobs = captureBlobs();
      const fs = fakePicker();
      fs.picker.mockRejectedValueOnce(new DOMException('The user aborted a request.', 'AbortError'));
      const { user, server } = await renderFileAccess({ files: [report], vaultKey });
      await askToDownload(user, report);
      await waitFor(() => expect(fs.picker).toHaveBeenCalled());
      expect(server.calls(`GET ${blobPath(report.view.dto.id)}`)).toHaveLength(0);
      expect(blobs.saved).toHaveLength(0);
      expect(progressText(report)).toBeNull();
    });

    it('falls back to a Blob when the picker is refused (no user gesture left)', async () => {
      const blobs = captureBlobs();
      const fs = fakePicker();
      fs.picker.mockRejectedValueOnce(new DOMException('Must be handling a user gesture', 'SecurityError'));
      const { user } = await renderFileAccess({ files: [report], vaultKey });
      await askToDownload(user, report);
      await waitFor(() => expect(blobs.saved).toHaveLength(1));
      expect(bytesToHex(await readBlob(blobs.saved[0]!.blob))).toBe(bytesToHex(report.plaintext));
    });
  });
});
