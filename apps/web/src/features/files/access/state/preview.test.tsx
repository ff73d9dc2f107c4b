import { bytesToHex, randomBytes, utf8ToBytes } from '@vault/crypto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../../testing/fake-server';
import { loadPdfJs, type PdfJs } from '../utils/pdf/load-pdfjs';
import {
  CORRECT_PASSWORD,
  blobPath,
  captureBlobs,
  makeVaultKey,
  objectResponse,
  readBlob,
  renderFileAccess,
  sealTestFile,
  type SealedTestFile,
} from '../testing/file-access-harness';

vi.mock('../utils/pdf/load-pdfjs', () => ({ loadPdfJs: vi.fn() }));

type User = ReturnType<typeof userEvent.setup>;

const INTEGRITY = 'The file failed its integrity check: it was changed or cut short';
const PDF_BYTES = utf8ToBytes('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function openPreview(user: User, file: SealedTestFile, password = CORRECT_PASSWORD) {
  await user.click(screen.getByRole('button', { name: `Preview ${file.view.name}` }));
  const prompt = await screen.findByRole('dialog', { name: 'Authenticate Preview' });
  await user.type(within(prompt).getByLabelText('Current Password'), password);
  await user.click(within(prompt).getByRole('button', { name: 'Preview' }));
  return prompt;
}

/** The preview modal, once its content (or error) replaced the loading state. */
async function shownPreview(name: string) {
  const dialog = await screen.findByRole('dialog', { name });
  await waitFor(() =>
    expect(dialog.querySelector('.preview__body')?.getAttribute('data-kind')).not.toBe('loading'),
  );
  return dialog;
}

/** A stand-in for pdf.js: records getDocument and draws nothing. */
function fakePdfJs(options: { pages?: number; fail?: Error } = {}) {
  const render = vi.fn(() => ({ promise: Promise.resolve() }));
  const getDocument = vi.fn((_src: { data: Uint8Array; isEvalSupported?: boolean }) => ({
    promise: options.fail
      ? Promise.reject(options.fail)
      : Promise.resolve({
          numPages: options.pages ?? 2,
          getPage: async () => ({
            getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
            render,
            cleanup: () => undefined,
          }),
        }),
    destroy: vi.fn(async () => undefined),
  }));
  vi.mocked(loadPdfJs).mockResolvedValue({
    getDocument,
    GlobalWorkerOptions: { workerSrc: '' },
  } as unknown as PdfJs);
  return { getDocument, render };
}

describe('file preview (FileAccessProvider.requestPreview)', () => {
  let vaultKey: CryptoKey;

  beforeEach(async () => {
    vaultKey = await makeVaultKey();
    vi.mocked(loadPdfJs).mockReset();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the password (Authenticate Preview), then shows a text file in monospace with name, size, type and footer', async () => {
    const blobs = captureBlobs();
    const text = 'Hello, vault!\n' + 'x'.repeat(1536 - 14);
    const file = await sealTestFile(vaultKey, text, { name: 'notes.txt', mimeType: 'text/plain' });
    const { user, server } = await renderFileAccess({ files: [file], vaultKey });
    await user.click(screen.getByRole('button', { name: 'Preview notes.txt' }));
    expect(screen.getByRole('dialog', { name: 'Authenticate Preview' }).textContent).toContain(
      'Enter your password to preview "notes.txt"',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await openPreview(user, file);

    const dialog = await shownPreview('notes.txt');
    expect(server.calls(`POST /api/files/${file.view.dto.id}/preview`)[0]?.body).toEqual({
      authKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const pre = within(dialog).getByLabelText('File content');
    expect(pre.tagName).toBe('PRE');
    expect(pre.textContent).toBe(text);
    expect(dialog.textContent).toContain('1.5 KB');
    expect(dialog.textContent).toContain('text/plain');
    expect(dialog.textContent).toContain(
      'This file is end-to-end encrypted and was decrypted for preview on this device.',
    );
    expect(dialog.textContent).toContain('Press ESC to close');
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    // Text needs no object URL.
    expect(blobs.created.size).toBe(0);
  });

  it('decodes UTF-8 and shows code (JSON) monospace as text, never as markup', async () => {
    captureBlobs();
    const source = '{"greeting": "Grüße 🌍", "html": "<b>not bold</b>"}';
    const file = await sealTestFile(vaultKey, source, { name: 'data.json', mimeType: 'application/json' });
    const { user } = await renderFileAccess({ files: [file], vaultKey });
    await openPreview(user, file);
    const dialog = await shownPreview('data.json');
    const pre = within(dialog).getByLabelText('File content');
    expect(pre.className).toContain('preview__text--code');
    expect(pre.textContent).toBe(source);
    expect(pre.querySelector('b')).toBeNull();
  });

  it('shows only the first 1 MB of a large text file, with a note', async () => {
    captureBlobs();
    const big = 'line of text\n'.repeat(90_000); // 1.1 MB
    const file = await sealTestFile(vaultKey, big, { name: 'big.log', mimeType: 'text/plain' });
    const { user } = await renderFileAccess({ files: [file], vaultKey });
    await openPreview(user, file);
    const dialog = await shownPreview('big.log');
    expect(within(dialog).getByRole('note').textContent).toBe(
      'Showing the first 1 MB of 1.12 MB. Download the file to see all of it.',
    );
    expect(within(dialog).getByLabelText('File content').textContent?.length).toBe(1024 * 1024);
  });

  describe('image', () => {
    it('shows the image from an object URL, zooms 25%–400% in steps of 25 and rotates 90° per click', async () => {
      const blobs = captureBlobs();
      const file = await sealTestFile(vaultKey, randomBytes(2000), {
        name: 'photo.png',
        mimeType: 'image/png',
      });
      const { user } = await renderFileAccess({ files: [file], vaultKey });
      await openPreview(user, file);
      const dialog = await shownPreview('photo.png');
      const img = within(dialog).getByRole<HTMLImageElement>('img', { name: 'photo.png' });
      expect(img.getAttribute('src')).toMatch(/^blob:/);
      const blob = blobs.created.get(img.getAttribute('src')!);
      expect(blob?.type).toBe('image/png');
      expect(bytesToHex(await readBlob(blob!))).toBe(bytesToHex(file.plaintext));

      const zoom = () => within(dialog).getByLabelText('Zoom level').textContent;
      const zoomIn = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Zoom in' });
      const zoomOut = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Zoom out' });
      expect(zoom()).toBe('100%');
      expect(img.style.transform).toBe('scale(1) rotate(0deg)');
      for (let i = 0; i < 12; i++) await user.click(zoomIn);
      expect(zoom()).toBe('400%');
      expect(zoomIn.disabled).toBe(true);
      expect(img.style.transform).toBe('scale(4) rotate(0deg)');
      for (let i = 0; i < 15; i++) await user.click(zoomOut);
      expect(zoom()).toBe('25%');
      expect(zoomOut.disabled).toBe(true);
      expect(img.style.transform).toBe('scale(0.25) rotate(0deg)');
      await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
      expect(zoom()).toBe('100%');

      const rotate = within(dialog).getByRole('button', { name: 'Rotate' });
      await user.click(rotate);
      expect(img.style.transform).toBe('scale(1) rotate(90deg)');
      await user.click(rotate);
      await user.click(rotate);
      await user.click(rotate);
      expect(img.style.transform).toBe('scale(1) rotate(0deg)');
    });

    it("dispatches 'reload-image-preview' with the file id when the image fails; reloads once, then shows the error", async () => {
      const blobs = captureBlobs();
      const file = await sealTestFile(vaultKey, randomBytes(500), {
        name: 'broken.webp',
        mimeType: 'image/webp',
      });
      const { user } = await renderFileAccess({ files: [file], vaultKey });
      const events: unknown[] = [];
      const listener = (e: Event) => events.push((e as CustomEvent).detail);
      window.addEventListener('reload-image-preview', listener);
      try {
        await openPreview(user, file);
        const dialog = await shownPreview('broken.webp');
        const first = within(dialog).getByRole('img', { name: 'broken.webp' }).getAttribute('src');
        fireEvent.error(within(dialog).getByRole('img', { name: 'broken.webp' }));
        expect(events).toEqual([{ fileId: file.view.dto.id }]);
        await waitFor(() =>
          expect(within(dialog).getByRole('img', { name: 'broken.webp' }).getAttribute('src')).not.toBe(
            first,
          ),
        );
        expect(blobs.created.size).toBe(2);
        fireEvent.error(within(dialog).getByRole('img', { name: 'broken.webp' }));
        expect(events).toHaveLength(2);
        expect((await within(dialog).findByRole('alert')).textContent).toContain('Failed to load preview');
        expect(dialog.textContent).toContain('Preview Error');
      } finally {
        window.removeEventListener('reload-image-preview', listener);
      }
    });
  });

  describe('pdf', () => {
    it('renders a PDF locally with pdf.js (a copy of the decrypted bytes, no eval), from a lazily loaded module', async () => {
      captureBlobs();
      const pdf = fakePdfJs({ pages: 2 });
      const file = await sealTestFile(vaultKey, PDF_BYTES, {
        name: 'paper.pdf',
        mimeType: 'application/pdf',
      });
      const { user } = await renderFileAccess({ files: [file], vaultKey });
      await openPreview(user, file);
      const dialog = await shownPreview('paper.pdf');
      await waitFor(() => expect(within(dialog).getAllByRole('img')).toHaveLength(2));
      expect(within(dialog).getByRole('img', { name: 'Page 1 of 2' }).tagName).toBe('CANVAS');
      expect(loadPdfJs).toHaveBeenCalledTimes(1);
      const [src] = pdf.getDocument.mock.calls[0]!;
      expect(bytesToHex(src.data)).toBe(bytesToHex(PDF_BYTES));
      expect(src.isEvalSupported).toBe(false);
      expect(pdf.render).toHaveBeenCalledTimes(2);
      expect(within(dialog).getByText('Secure viewer (on this device)')).toBeTruthy();
      expect(dialog.querySelector('iframe')).toBeNull();
    });

    it("stops a file without the '%PDF-' header, and 'Force Load PDF (Skip Validation)' tries anyway", async () => {
      captureBlobs();
      const pdf = fakePdfJs({ pages: 1 });
      const file = await sealTestFile(vaultKey, 'not really a pdf', {
        name: 'fake.pdf',
        mimeType: 'application/pdf',
      });
      const { user } = await renderFileAccess({ files: [file], vaultKey });
      await openPreview(user, file);
      const dialog = await shownPreview('fake.pdf');
      const panel = await within(dialog).findByRole('alert');
      expect(panel.textContent).toContain('PDF Preview Unavailable');
      expect(panel.textContent).toContain('Invalid PDF data - missing PDF header');
      expect(pdf.getDocument).not.toHaveBeenCalled();
      await user.click(within(dialog).getByRole('button', { name: 'Force Load PDF (Skip Validation)' }));
      await waitFor(() => expect(pdf.getDocument).toHaveBeenCalledTimes(1));
      expect(within(dialog).queryByText('Invalid PDF data - missing PDF header')).toBeNull();
    });

    it("says 'Failed to display PDF: ...' when pdf.js fails, and offers the browser's viewer, a new tab and Download", async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
      const blobs = captureBlobs();
      fakePdfJs({ fail: new Error('Invalid PDF structure.') });
      const file = await sealTestFile(vaultKey, PDF_BYTES, {
        name: 'paper.pdf',
        mimeType: 'application/pdf',
      });
      const { user } = await renderFileAccess({
        files: [file],
        vaultKey,
        advanceTimers: (ms) => vi.advanceTimersByTime(ms),
      });
      await openPreview(user, file);
      const dialog = await shownPreview('paper.pdf');
      const panel = await within(dialog).findByRole('alert');
      expect(panel.textContent).toContain('PDF Preview Unavailable');
      expect(panel.textContent).toContain('Failed to display PDF: Invalid PDF structure.');
      expect(within(dialog).getByRole('button', { name: 'Try Again' })).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: 'Open in New Tab' })).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: 'Download PDF' })).toBeTruthy();
      expect(within(dialog).queryByRole('button', { name: /google/i })).toBeNull();

      await user.click(within(dialog).getByRole('button', { name: 'Try Different Viewer' }));
      const frame = dialog.querySelector('iframe');
      expect(frame?.getAttribute('src')).toMatch(/^blob:/);
      expect(blobs.created.get(frame!.getAttribute('src')!)?.type).toBe('application/pdf');
      // The browser viewer never reports a load here: after 3 s it is declared failed.
      act(() => {
        vi.advanceTimersByTime(3100);
      });
      expect((await within(dialog).findByRole('alert')).textContent).toContain(
        'Browser PDF viewer failed to load. Please download the PDF.',
      );
    });

    it('opens the PDF in a new tab (or says the pop-up was blocked), and downloads it from memory', async () => {
      const blobs = captureBlobs();
      fakePdfJs({ pages: 1 });
      const file = await sealTestFile(vaultKey, PDF_BYTES, {
        name: 'paper.pdf',
        mimeType: 'application/pdf',
      });
      const { user, server } = await renderFileAccess({ files: [file], vaultKey });
      await openPreview(user, file);
      const dialog = await shownPreview('paper.pdf');
      const tab = { document: document.implementation.createHTMLDocument(''), opener: {} as unknown };
      vi.spyOn(window, 'open')
        .mockReturnValueOnce(null)
        .mockReturnValueOnce(tab as unknown as Window);
      await user.click(within(dialog).getByRole('button', { name: 'Open in New Tab' }));
      expect(within(dialog).getByRole('status').textContent).toContain('The new tab was blocked');
      await user.click(within(dialog).getByRole('button', { name: 'Open in New Tab' }));
      // The tab carries the file's name; the PDF is its frame, from the object URL.
      expect(tab.document.title).toBe('paper.pdf');
      expect(tab.document.querySelector('iframe')?.getAttribute('src')).toMatch(/^blob:/);
      expect(within(dialog).queryByRole('status')).toBeNull();
      expect(tab.opener).toBeNull();

      await user.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
      await waitFor(() => expect(blobs.saved).toHaveLength(1));
      expect(blobs.saved[0]?.name).toBe('paper.pdf');
      expect(bytesToHex(await readBlob(blobs.saved[0]!.blob))).toBe(bytesToHex(PDF_BYTES));
      // No second password, no second transfer.
      expect(server.calls(`GET ${blobPath(file.view.dto.id)}`)).toHaveLength(1);
      expect(server.calls(`POST /api/files/${file.view.dto.id}/download-url`)).toHaveLength(0);
    });
  });

  it.each([
    ['video', 'clip.mp4', 'video/mp4', 'VIDEO'],
    ['audio', 'song.mp3', 'audio/mpeg', 'AUDIO'],
  ])('plays %s from an object URL with controls', async (_kind, name, mimeType, tag) => {
    const blobs = captureBlobs();
    const file = await sealTestFile(vaultKey, randomBytes(3000), { name, mimeType });
    const { user } = await renderFileAccess({ files: [file], vaultKey });
    await openPreview(user, file);
    const dialog = await shownPreview(name);
    const media = dialog.querySelector<HTMLMediaElement>('video, audio');
    expect(media?.tagName).toBe(tag);
    expect(media?.controls).toBe(true);
    expect(blobs.created.get(media!.getAttribute('src')!)?.type).toBe(mimeType);
  });

  it("shows 'Download to view' for a document (docx), whose Download saves the decrypted file without asking again", async () => {
    const blobs = captureBlobs();
    const file = await sealTestFile(vaultKey, randomBytes(4000), {
      name: 'plan.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const { user, server } = await renderFileAccess({ files: [file], vaultKey });
    await openPreview(user, file);
    const dialog = await shownPreview('plan.docx');
    expect(dialog.textContent).toContain('Download to view');
    const buttons = within(dialog).getAllByRole('button', { name: 'Download' });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1]!);
    await waitFor(() => expect(blobs.saved).toHaveLength(1));
    expect(bytesToHex(await readBlob(blobs.saved[0]!.blob))).toBe(bytesToHex(file.plaintext));
    expect(screen.queryByRole('dialog', { name: 'Authenticate Download' })).toBeNull();
    expect(server.calls(`POST /api/files/${file.view.dto.id}/download-url`)).toHaveLength(0);
  });

  it('says a file type is not supported, and offers Download', async () => {
    captureBlobs();
    const file = await sealTestFile(vaultKey, randomBytes(100), {
      name: 'model.glb',
      mimeType: 'model/gltf-binary',
    });
    const { user } = await renderFileAccess({ files: [file], vaultKey });
    await openPreview(user, file);
    const dialog = await shownPreview('model.glb');
    expect(dialog.textContent).toContain('Preview not available');
    expect(within(dialog).getAllByRole('button', { name: 'Download' })).toHaveLength(2);
  });

  it("shows 'Preview Error' with 'Failed to decrypt: ...' for a tampered object, and no content", async () => {
    const blobs = captureBlobs();
    const file = await sealTestFile(vaultKey, randomBytes(70_000), {
      name: 'photo.png',
      mimeType: 'image/png',
    });
    const { user, server } = await renderFileAccess({ files: [file], vaultKey });
    const bad = file.ciphertext.map((b, i) => (i === 10 ? b ^ 1 : b));
    server.on(`GET ${blobPath(file.view.dto.id)}`, () => objectResponse(bad));
    await openPreview(user, file);
    const dialog = await shownPreview('photo.png');
    const panel = within(dialog).getByRole('alert');
    expect(panel.textContent).toContain('Preview Error');
    expect(panel.textContent).toContain(`Failed to decrypt: ${INTEGRITY}`);
    expect(within(dialog).queryByRole('img')).toBeNull();
    expect(blobs.created.size).toBe(0);
  });

  it("shows the storage's refusal in the error panel ('Failed to download encrypted content: 404')", async () => {
    captureBlobs();
    const file = await sealTestFile(vaultKey, 'hello', { name: 'a.txt', mimeType: 'text/plain' });
    const { user, server } = await renderFileAccess({ files: [file], vaultKey });
    server.on(`GET ${blobPath(file.view.dto.id)}`, () => json(404, { error: 'Not found' }));
    await openPreview(user, file);
    const dialog = await shownPreview('a.txt');
    expect(within(dialog).getByRole('alert').textContent).toContain(
      'Failed to download encrypted content: 404',
    );
  });

  it("shows 'Invalid password' in the prompt for a wrong password", async () => {
    const file = await sealTestFile(vaultKey, 'hello', { name: 'a.txt', mimeType: 'text/plain' });
    const { user } = await renderFileAccess({ files: [file], vaultKey });
    const prompt = await openPreview(user, file, 'wrong-password');
    expect((await within(prompt).findByRole('alert')).textContent).toBe('Invalid password');
  });

  it('refuses to preview a file over 100 MB (the preview holds the whole file in memory)', async () => {
    const file = await sealTestFile(
      vaultKey,
      'x',
      { name: 'huge.txt', mimeType: 'text/plain' },
      { size: 100 * 1024 * 1024 + 1 },
    );
    const { user, server } = await renderFileAccess({ files: [file], vaultKey });
    await user.click(screen.getByRole('button', { name: 'Preview huge.txt' }));
    const dialog = await screen.findByRole('dialog', { name: 'huge.txt' });
    expect(within(dialog).getByRole('alert').textContent).toContain('too large to preview');
    expect(server.requests.filter((r) => r.path.startsWith('/api/files'))).toHaveLength(0);
  });

  it('shows the progress while it loads; closing then stops the transfer', async () => {
    captureBlobs();
    const file = await sealTestFile(vaultKey, randomBytes(200_000), {
      name: 'slow.bin',
      mimeType: 'application/octet-stream',
    });
    const { user, server } = await renderFileAccess({ files: [file], vaultKey });
    let cancelled = false;
    server.on(`GET ${blobPath(file.view.dto.id)}`, () => {
      let sent = false;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) return new Promise<void>(() => undefined); // the rest never comes
            sent = true;
            controller.enqueue(file.ciphertext.slice(0, 100_000));
          },
          cancel() {
            cancelled = true;
          },
        }),
        { status: 200 },
      );
    });
    await openPreview(user, file);
    const dialog = await screen.findByRole('dialog', { name: 'slow.bin' });
    const bar = await within(dialog).findByRole('progressbar', { name: 'Preview progress' });
    await waitFor(() => expect(bar.getAttribute('value')).toBe('49'));
    expect(dialog.textContent).toContain('Downloading');
    expect(screen.getByTestId(`progress-${file.view.dto.id}`).textContent).toBe('downloading 49');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(cancelled).toBe(true));
    expect(screen.queryByTestId(`progress-${file.view.dto.id}`)).toBeNull();
  });

  it.each([
    ['Escape', async (user: User) => user.keyboard('{Escape}')],
    ['the Close button', async (user: User) => user.click(screen.getByRole('button', { name: 'Close' }))],
  ])('closes on %s and revokes every object URL it made', async (_how, close) => {
    const blobs = captureBlobs();
    fakePdfJs({ pages: 1 });
    const image = await sealTestFile(vaultKey, randomBytes(900), { name: 'pic.gif', mimeType: 'image/gif' });
    const pdf = await sealTestFile(vaultKey, PDF_BYTES, { name: 'doc.pdf', mimeType: 'application/pdf' });
    const { user } = await renderFileAccess({ files: [image, pdf], vaultKey });

    await openPreview(user, image);
    await shownPreview('pic.gif');
    expect(blobs.live()).toHaveLength(1);
    await close(user);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(blobs.live()).toHaveLength(0);

    await openPreview(user, pdf);
    const dialog = await shownPreview('doc.pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Try Different Viewer' }));
    expect(blobs.live()).toHaveLength(1);
    await close(user);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(blobs.live()).toHaveLength(0);
    expect(blobs.revoked.size).toBe(2);
  });
});
