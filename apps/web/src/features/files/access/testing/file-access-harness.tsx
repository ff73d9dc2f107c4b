import type { FileDto } from '@vault/contracts';
import {
  bytesToHex,
  encryptFileBytes,
  encryptFileMetadata,
  importVaultKey,
  newItemId,
  randomBytes,
  utf8ToBytes,
} from '@vault/crypto';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { vi } from 'vitest';
import { AppProviders, createAppServices } from '../../../../app/services';
import { memoryKeyStore } from '../../../../lib/key-store';
import { DEFAULT_RUNTIME_CONFIG } from '../../../../lib/runtime-config';
import { memoryStorage } from '../../../../lib/storage';
import { FakeCryptoService } from '../../../../testing/fake-crypto';
import { FakeServer, TEST_USER, TEST_VAULT, fakeJwt, json } from '../../../../testing/fake-server';
import { channelWorker } from '../../../../testing/channel-worker';
import { createFilesDownloadApi } from '../../../../workers/files-download-api';
import {
  InlineFilesDownloadCrypto,
  WorkerFilesDownloadCrypto,
  type FilesDownloadCrypto,
} from '../../../../workers/files-download-crypto';
import type { FileTransferProgress, FileView } from '../../types';
import { FileAccessProvider, useFileAccess } from '../index';

export const CORRECT_PASSWORD = 'Correct-horse-1';

/**
 * The files-download worker's real API behind a MessageChannel: streams are really
 * transferred and every chunk crosses a port (a task boundary), as with the browser's Worker.
 */
export function channelWorkerCrypto(): FilesDownloadCrypto {
  return new WorkerFilesDownloadCrypto(() => channelWorker(createFilesDownloadApi()));
}

export function makeVaultKey(): Promise<CryptoKey> {
  return importVaultKey(randomBytes(32));
}

export interface SealedTestFile {
  view: FileView;
  /** The stored object, as the storage would serve it. */
  ciphertext: Uint8Array<ArrayBuffer>;
  plaintext: Uint8Array;
}

/** A file sealed with the real protocol (metadata and content), as the API and the storage hold it. */
export async function sealTestFile(
  vaultKey: CryptoKey,
  content: Uint8Array | string,
  meta: { name: string; mimeType: string; tags?: string[] },
  dto: Partial<FileDto> = {},
): Promise<SealedTestFile> {
  const plaintext = typeof content === 'string' ? utf8ToBytes(content) : content;
  const id = newItemId();
  const sealed = await encryptFileMetadata(vaultKey, id, {
    name: meta.name,
    mimeType: meta.mimeType,
    tags: meta.tags ?? [],
  });
  const iv = bytesToHex(randomBytes(12));
  const ciphertext = (await encryptFileBytes(
    { fileKey: sealed.fileKey, fileId: id, iv },
    plaintext,
  )) as Uint8Array<ArrayBuffer>;
  const fileDto: FileDto = {
    id,
    encryptedName: sealed.encryptedName,
    encryptedMimeType: sealed.encryptedMimeType,
    encryptedTags: sealed.encryptedTags,
    wrappedKey: sealed.wrappedKey,
    iv,
    chunkSize: 65_536,
    size: plaintext.length,
    encryptedSize: ciphertext.length,
    storageType: 'local',
    uploadedAt: '2026-03-14T09:26:53.000Z',
    deletedAt: null,
    virusScanned: true,
    virusScanResult: 'clean',
    hasThumbnail: false,
    ...dto,
  };
  return {
    view: { dto: fileDto, status: 'ready', name: meta.name, mimeType: meta.mimeType, tags: meta.tags ?? [] },
    ciphertext,
    plaintext,
  };
}

/** A storage answer that delivers the bytes in pieces (as a network does), so progress moves in steps. */
export function objectResponse(bytes: Uint8Array, piece = 16_384, status = 200): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
  return new Response(body, { status, headers: { 'content-type': 'application/octet-stream' } });
}

export const blobPath = (fileId: string) => `/api/files/blob/${fileId}`;

/**
 * The server side of file access: prelogin, then download-url / preview that accept only the
 * authKey of CORRECT_PASSWORD (401 INVALID_PASSWORD otherwise) and answer a relative signed URL
 * whose GET serves the file's ciphertext.
 */
export function fileServer(
  files: SealedTestFile[],
  crypto: FakeCryptoService,
  server: FakeServer = new FakeServer().withSession(),
) {
  const goodKey = crypto.authKeyFor(CORRECT_PASSWORD);
  server.on('POST /api/auth/prelogin', () =>
    json(200, { salt: TEST_VAULT.salt, kdfParams: TEST_VAULT.kdfParams }),
  );
  for (const f of files) {
    const id = f.view.dto.id;
    const check = (body: unknown) => (body as { authKey?: string } | undefined)?.authKey === goodKey;
    server
      .on(`POST /api/files/${id}/download-url`, (req) =>
        check(req.body)
          ? json(200, {
              downloadUrl: `${blobPath(id)}?sig=abc`,
              size: f.view.dto.size,
              encryptedSize: f.view.dto.encryptedSize,
              expiresAt: '2026-03-14T09:31:53.000Z',
            })
          : json(401, { error: 'Invalid password', code: 'INVALID_PASSWORD' }),
      )
      .on(`POST /api/files/${id}/preview`, (req) =>
        check(req.body)
          ? json(200, { content: `${blobPath(id)}?sig=def`, expiresAt: '2026-03-14T09:31:53.000Z' })
          : json(401, { error: 'Invalid password', code: 'INVALID_PASSWORD' }),
      )
      .on(`GET ${blobPath(id)}`, () => objectResponse(f.ciphertext));
  }
  return server;
}

/** Every progress value a file went through, in order (recorded by the harness's list). */
export type ProgressLog = Map<string, FileTransferProgress[]>;

function ProgressProbe({ id, p, log }: { id: string; p: FileTransferProgress; log: ProgressLog }) {
  useEffect(() => {
    const list = log.get(id) ?? [];
    const last = list[list.length - 1];
    if (!last || last.stage !== p.stage || last.percent !== p.percent || last.error !== p.error) {
      list.push(p);
      log.set(id, list);
    }
  }, [id, p, log]);
  return (
    <span data-testid={`progress-${id}`}>
      {p.stage} {p.percent}
      {p.error ? ` ${p.error}` : ''}
    </span>
  );
}

/** Stands in for the File Vault's cards: Download / Preview buttons and the progress per file. */
function FileList({ files, log }: { files: FileView[]; log: ProgressLog }) {
  const { requestDownload, requestPreview, progress } = useFileAccess();
  return (
    <ul>
      {files.map((f) => {
        const p = progress.get(f.dto.id);
        return (
          <li key={f.dto.id}>
            <button type="button" onClick={() => requestDownload(f)}>
              Download {f.name}
            </button>
            <button type="button" onClick={() => requestPreview(f)}>
              Preview {f.name}
            </button>
            {p ? <ProgressProbe id={f.dto.id} p={p} log={log} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

export interface RenderFileAccessOptions {
  files: SealedTestFile[];
  vaultKey: CryptoKey;
  server?: FakeServer;
  crypto?: FakeCryptoService;
  downloadCrypto?: FilesDownloadCrypto;
  /** Wraps the server's fetch (e.g. to record the init of the storage GET). */
  fetch?: typeof fetch;
  /** Sign in without a vault key (the vault is locked). */
  locked?: boolean;
  advanceTimers?: (ms: number) => unknown;
  /** Least time between two shown percents of a transfer (the provider's default when absent). */
  progressIntervalMs?: number;
}

/** The provider inside the app's real services (API client, session, crypto context) over a fake API. */
export async function renderFileAccess(options: RenderFileAccessOptions) {
  const crypto = options.crypto ?? new FakeCryptoService();
  const server = options.server ?? fileServer(options.files, crypto);
  const services = createAppServices({
    config: DEFAULT_RUNTIME_CONFIG,
    storage: memoryStorage(),
    keyStore: memoryKeyStore(),
    crypto,
    fetch: server.fetch as typeof fetch,
  });
  await services.session.signIn({
    user: TEST_USER,
    access: fakeJwt(),
    vaultKey: options.vaultKey,
    stayUnlocked: false,
  });
  if (options.locked) await services.session.unlock(null as unknown as CryptoKey, false);
  const log: ProgressLog = new Map();
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const view = render(
    <AppProviders services={services}>
      <FileAccessProvider
        downloadCrypto={options.downloadCrypto ?? new InlineFilesDownloadCrypto()}
        fetch={options.fetch ?? (server.fetch as typeof fetch)}
        progressIntervalMs={options.progressIntervalMs}
      >
        <FileList files={options.files.map((f) => f.view)} log={log} />
      </FileAccessProvider>
    </AppProviders>,
  );
  return { ...view, user, server, crypto, services, log };
}

/** Object URLs made and revoked, and files "saved" by an <a download> click (jsdom has neither). */
export function captureBlobs() {
  const created = new Map<string, Blob>();
  const revoked = new Set<string>();
  const saved: { name: string; blob: Blob }[] = [];
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((obj: Blob | MediaSource) => {
    n += 1;
    const url = `blob:http://localhost/test-${n}`;
    created.set(url, obj as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
    revoked.add(url);
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = created.get(this.href);
    if (blob && this.download) saved.push({ name: this.download, blob });
  });
  return {
    created,
    revoked,
    saved,
    /** URLs made and not yet revoked. */
    live: () => [...created.keys()].filter((u) => !revoked.has(u)),
  };
}

/** jsdom's Blob has no arrayBuffer(): read it the old way. */
export function readBlob(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}
