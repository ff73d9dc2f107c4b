import {
  completeUploadBodySchema,
  createUploadBodySchema,
  expectedEncryptedSize,
  type FileDto,
  type StorageType,
  type StorageTypesResponse,
  type VirusScanResult,
} from '@vault/contracts';
import {
  encryptFileMetadata,
  encryptThumbnail,
  encryptedSizeFor,
  importVaultKey,
  newItemId,
  randomBytes,
} from '@vault/crypto';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { AppProviders, createAppServices, type AppServices } from '../../../app/services';
import { memoryKeyStore } from '../../../lib/key-store';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config';
import { memoryStorage } from '../../../lib/storage';
import { FakeCryptoService } from '../../../testing/fake-crypto';
import { TEST_USER, TEST_VAULT, fakeJwt, json } from '../../../testing/fake-server';
import { FakeRouteApi, routeOf } from '../../../testing/fake-route-api';
import { InlineFilesCrypto, type FilesCrypto } from '../../../workers/files-crypto';
import type { PartPut } from '../../../workers/files-parts';
import { FilesCryptoProvider } from '../../../workers/files-crypto-context';
import { InlineNotesCrypto, type NotesCrypto } from '../../../workers/notes-crypto';
import { NotesCryptoProvider } from '../../../workers/notes-crypto-context';
import { UploadHttpError, type UploadProgress, type UploadTransport } from '../state/upload-transport';
import { UploadTransportProvider } from '../state/upload-transport-context';

/** A real vault key: a non-extractable AES-256-GCM CryptoKey, as unlocking produces. */
export function makeVaultKey(): Promise<CryptoKey> {
  return importVaultKey(randomBytes(32));
}

export interface SealFileOptions {
  id?: string;
  size?: number;
  uploadedAt?: string;
  deletedAt?: string | null;
  virusScanResult?: VirusScanResult;
  storageType?: StorageType;
  /** Thumbnail bytes: sealed under the file key and served by GET /files/{id}/optimized. */
  thumbnail?: Uint8Array;
}

export interface SealedTestFile {
  dto: FileDto;
  encryptedThumbnail?: string;
}

/** A file record sealed with the real protocol (metadata and, optionally, a thumbnail), as the API returns it. */
export async function sealFile(
  key: CryptoKey,
  plain: { name: string; mimeType?: string; tags?: string[] },
  options: SealFileOptions = {},
): Promise<SealedTestFile> {
  const id = options.id ?? newItemId();
  const { fileKey, ...sealed } = await encryptFileMetadata(key, id, {
    name: plain.name,
    mimeType: plain.mimeType ?? 'text/plain',
    tags: plain.tags ?? [],
  });
  const size = options.size ?? 2048;
  const scan = options.virusScanResult ?? 'clean';
  const dto: FileDto = {
    id,
    encryptedName: sealed.encryptedName,
    encryptedMimeType: sealed.encryptedMimeType,
    encryptedTags: sealed.encryptedTags,
    wrappedKey: sealed.wrappedKey,
    iv: '0'.repeat(24),
    chunkSize: 65536,
    size,
    encryptedSize: encryptedSizeFor(size),
    storageType: options.storageType ?? 'local',
    uploadedAt: options.uploadedAt ?? '2026-03-01T10:00:00.000Z',
    deletedAt: options.deletedAt ?? null,
    virusScanned: scan !== 'pending',
    virusScanResult: scan,
    hasThumbnail: options.thumbnail !== undefined,
  };
  const out: SealedTestFile = { dto };
  if (options.thumbnail) out.encryptedThumbnail = await encryptThumbnail(fileKey, id, options.thumbnail);
  return out;
}

interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

interface PendingUpload {
  body: Record<string, unknown>;
  storageType: StorageType;
}

/** Reads a Blob in jsdom (whose Blob has no arrayBuffer()). */
export function readBlob(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

const STORAGE_KINDS: ReadonlyArray<{ type: StorageType; label: string; enableWith: string[] }> = [
  { type: 'local', label: 'Local disk', enableWith: ['STORAGE_LOCAL_ENABLED=true'] },
  {
    type: 's3',
    label: 'S3 / R2 / MinIO',
    enableWith: ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
  },
  { type: 'cloudinary', label: 'Cloudinary', enableWith: ['CLOUDINARY_URL'] },
];

/** GET /api/files/storage-types as the files service answers it with these kinds configured. */
export function storageTypesAnswer(
  configured: StorageType[],
  defaultType: StorageType,
): StorageTypesResponse {
  const kinds = STORAGE_KINDS.map((k) => ({ ...k, configured: configured.includes(k.type) }));
  return {
    types: kinds.filter((k) => k.configured).map(({ type, label }) => ({ type, label })),
    kinds,
    default: defaultType,
  };
}

/**
 * The files API of the gateway, in memory, at the fetch level, plus the storage the browser
 * uploads to (`storage`, an UploadTransport). Checks upload bodies against the contract schemas,
 * like the gateway. Every request is recorded; `fail` scripts an error answer for a route and
 * `hold` makes a route wait until `release`.
 */
export class FakeFilesApi extends FakeRouteApi<FakeRequest> {
  active: FileDto[] = [];
  deleted: FileDto[] = [];
  readonly thumbnails = new Map<string, string>();
  /** Ciphertext received by the storage, by file id. */
  readonly stored = new Map<string, Uint8Array>();
  readonly pending = new Map<string, PendingUpload>();
  storageTypes: StorageTypesResponse = storageTypesAnswer(['local', 's3'], 'local');
  /** The account's malware-fingerprint opt-in (GET/PUT /api/auth/settings). */
  malwareFingerprintCheck = false;
  /** Answer of DELETE /api/files/trash: 204 (the contract) or {deleted}. */
  emptyTrashAnswersCount = false;
  /** upload-url's `partSize` for local storage (the real files service offers parts there); none when unset. */
  partSize: number | undefined = undefined;
  readonly storage: FakeStorage;

  constructor(active: SealedTestFile[] = [], deleted: SealedTestFile[] = []) {
    super();
    for (const f of [...active, ...deleted]) {
      if (f.encryptedThumbnail) this.thumbnails.set(f.dto.id, f.encryptedThumbnail);
    }
    this.active = active.map((f) => f.dto);
    this.deleted = deleted.map((f) => f.dto);
    this.storage = new FakeStorage(this);
  }

  protected route(path: string): string {
    return filesRouteOf(path);
  }

  /** A file the storage has received (and, for local and S3, that upload-complete has confirmed). */
  activate(fileId: string): FileDto | null {
    const pending = this.pending.get(fileId);
    const bytes = this.stored.get(fileId);
    if (!pending || !bytes) return null;
    const b = pending.body;
    if (bytes.length !== b['encryptedSize']) return null;
    this.pending.delete(fileId);
    const dto: FileDto = {
      id: fileId,
      encryptedName: String(b['encryptedName']),
      encryptedMimeType: String(b['encryptedMimeType']),
      encryptedTags: String(b['encryptedTags']),
      wrappedKey: String(b['wrappedKey']),
      iv: String(b['iv']),
      chunkSize: Number(b['chunkSize']),
      size: Number(b['size']),
      encryptedSize: Number(b['encryptedSize']),
      storageType: pending.storageType,
      uploadedAt: this.now(),
      deletedAt: null,
      virusScanned: false,
      virusScanResult: 'pending',
      hasThumbnail: typeof b['encryptedThumbnail'] === 'string',
    };
    if (typeof b['encryptedThumbnail'] === 'string') this.thumbnails.set(fileId, b['encryptedThumbnail']);
    this.active.push(dto);
    return dto;
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(
      Object.entries((init.headers as Record<string, string> | undefined) ?? {}).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    );
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const req = { method, path: url.pathname, body, headers };
    return this.dispatch(req);
  };

  protected handle(route: string, req: FakeRequest): Response {
    const id = req.path.split('/')[3] ?? '';
    const byId = (list: FileDto[]) => list.find((f) => f.id === id);
    switch (route) {
      case 'GET /api/auth/me':
        return json(200, { user: TEST_USER, vault: TEST_VAULT });
      case 'GET /api/auth/settings':
        return json(200, { malwareFingerprintCheck: this.malwareFingerprintCheck });
      case 'GET /api/files/storage-types':
        return json(200, this.storageTypes);
      case 'GET /api/files':
        return json(200, {
          files: [...this.active].sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt)),
        });
      case 'GET /api/files/deleted':
        return json(200, {
          files: [...this.deleted].sort((a, b) => (b.deletedAt ?? '').localeCompare(a.deletedAt ?? '')),
        });
      case 'GET /api/files/counts':
        return json(200, {
          active: this.active.length,
          deleted: this.deleted.length,
          bytes: this.active.reduce((n, f) => n + f.size, 0),
        });
      case 'POST /api/files/upload-url': {
        const parsed = createUploadBodySchema.safeParse(req.body);
        if (!parsed.success) return json(400, { error: parsed.error.issues[0]?.message ?? 'Invalid body' });
        if (parsed.data.encryptedSize !== expectedEncryptedSize(parsed.data.size, parsed.data.chunkSize)) {
          return json(400, { error: 'encryptedSize mismatch' });
        }
        const fileId = parsed.data.fileId;
        this.pending.set(fileId, {
          body: req.body as Record<string, unknown>,
          storageType: parsed.data.storageType,
        });
        return json(200, {
          fileId,
          uploadUrl:
            parsed.data.storageType === 's3'
              ? `https://bucket.s3.test/vault/${fileId}?X-Amz-Signature=abc`
              : `/api/files/blob/${fileId}?op=put&sig=abc`,
          expiresAt: new Date(this.clock + 300_000).toISOString(),
          ...(this.partSize !== undefined && parsed.data.storageType === 'local'
            ? { partSize: this.partSize }
            : {}),
        });
      }
      case 'POST /api/files/upload-complete': {
        const parsed = completeUploadBodySchema.safeParse(req.body);
        if (!parsed.success) return json(400, { error: parsed.error.issues[0]?.message ?? 'Invalid body' });
        const fileId = parsed.data.fileId;
        if (!this.pending.has(fileId)) return json(404, { error: 'File not found' });
        const file = this.activate(fileId);
        if (!file) return json(400, { error: 'The uploaded file does not match its declared size' });
        return json(200, { file });
      }
      case 'GET /api/files/:id/optimized': {
        const sealed = byId(this.active) ? this.thumbnails.get(id) : undefined;
        return sealed ? json(200, { encryptedThumbnail: sealed }) : json(404, { error: 'Not found' });
      }
      case 'DELETE /api/files/:id': {
        const file = byId(this.active);
        if (!file) return json(404, { error: 'File not found' });
        this.active = this.active.filter((f) => f.id !== id);
        this.deleted.push({ ...file, deletedAt: this.now() });
        return json(204);
      }
      case 'POST /api/files/:id/restore': {
        const file = byId(this.deleted);
        if (!file) return json(404, { error: 'File not found' });
        this.deleted = this.deleted.filter((f) => f.id !== id);
        const restored = { ...file, deletedAt: null };
        this.active.push(restored);
        return json(200, { file: restored });
      }
      case 'DELETE /api/files/:id/permanent': {
        if (!byId(this.deleted)) return json(404, { error: 'File not found' });
        this.deleted = this.deleted.filter((f) => f.id !== id);
        return json(204);
      }
      case 'DELETE /api/files/trash': {
        const n = this.deleted.length;
        this.deleted = [];
        return this.emptyTrashAnswersCount ? json(200, { deleted: n }) : json(204);
      }
      default:
        return json(404, { error: 'Not found', code: 'NOT_FOUND' });
    }
  }
}

interface StorageRequest {
  method: 'PUT' | 'POST';
  url: string;
  fields?: Record<string, string>;
  size: number;
  /** A part's Content-Range (`bytes first-last/total`). */
  range?: string;
}

/**
 * The object storage the browser uploads to: records each request, reports progress in two
 * steps (half, then all), stores the bytes in the fake API. `hold()` stops after the first
 * progress event until `release()`; `fail(status)` answers the next upload with that status.
 */
export class FakeStorage implements UploadTransport {
  readonly requests: StorageRequest[] = [];
  private failures: number[] = [];
  private holding = false;
  private waiting: Array<() => void> = [];

  constructor(private readonly api: FakeFilesApi) {}

  fail(status: number): this {
    this.failures.push(status);
    return this;
  }

  hold(): this {
    this.holding = true;
    return this;
  }

  release(): void {
    this.holding = false;
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((go) => go());
  }

  private async receive(
    req: StorageRequest,
    fileId: string,
    body: Blob,
    onProgress: UploadProgress,
    signal: AbortSignal,
  ): Promise<void> {
    this.requests.push(req);
    onProgress(Math.floor(body.size / 2), body.size);
    if (this.holding) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.push(resolve);
        signal.addEventListener('abort', () => {
          const error = new Error('aborted');
          error.name = 'AbortError';
          reject(error);
        });
      });
    }
    const status = this.failures.shift();
    if (status !== undefined) throw new UploadHttpError(status);
    this.api.stored.set(fileId, await readBlob(body));
    onProgress(body.size, body.size);
  }

  put = async (url: string, body: Blob, onProgress: UploadProgress, signal: AbortSignal) => {
    const fileId = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    await this.receive({ method: 'PUT', url, size: body.size }, fileId, body, onProgress, signal);
  };

  /**
   * One part of an upload sent in parts (the files service's rules: in order, the first part at 0
   * starts over, anything else must start where the stored bytes end: 409 otherwise). `fail`
   * answers the next part; `hold` stops before storing a part until `release`.
   */
  putPart: PartPut = async ({ url, body: blob, first, last, total }) => {
    const body = await readBlob(blob);
    const fileId = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    this.requests.push({ method: 'PUT', url, size: body.length, range: `bytes ${first}-${last}/${total}` });
    if (this.holding) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const status = this.failures.shift();
    if (status !== undefined) throw new UploadHttpError(status);
    const held = first === 0 ? new Uint8Array(0) : (this.partial.get(fileId) ?? new Uint8Array(0));
    if (held.length !== first || last - first + 1 !== body.length) throw new UploadHttpError(409);
    const joined = new Uint8Array(held.length + body.length);
    joined.set(held);
    joined.set(body, held.length);
    if (last + 1 === total) {
      this.partial.delete(fileId);
      this.api.stored.set(fileId, joined);
    } else {
      this.partial.set(fileId, joined);
    }
  };

  private readonly partial = new Map<string, Uint8Array>();
}

const FILES_FIXED_NAMES = [
  'counts',
  'deleted',
  'trash',
  'storage-types',
  'upload-url',
  'upload-complete',
  'cloudinary',
  'blob',
];

/** `/api/files/<uuid>/restore` → `/api/files/:id/restore` (the fixed names stay). */
export function filesRouteOf(path: string): string {
  return routeOf(path, 'files', FILES_FIXED_NAMES);
}

/** One fetch for the files API and, when given, another API for everything else (the notes). */
export function combinedFetch(files: FakeFilesApi, other?: { fetch: typeof fetch }): typeof fetch {
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    if (url.pathname.startsWith('/api/files') || !other) return files.fetch(input, init);
    return other.fetch(input, init);
  };
}

export interface RenderFilesOptions {
  path?: string;
  api?: FakeFilesApi;
  /** Another fake API for the rest (e.g. FakeNotesApi for the trash). */
  otherApi?: { fetch: typeof fetch };
  vaultKey?: CryptoKey;
  filesCrypto?: FilesCrypto;
  transport?: UploadTransport;
  advanceTimers?: (ms: number) => unknown;
}

/**
 * Renders files screens signed in and unlocked with a real vault key, over the fake files API,
 * with the real files crypto in-thread (jsdom has no Worker) and the fake storage.
 */
export async function renderFiles(routes: RouteObject[], options: RenderFilesOptions = {}) {
  const api = options.api ?? new FakeFilesApi();
  const vaultKey = options.vaultKey ?? (await makeVaultKey());
  const services: AppServices = createAppServices({
    config: DEFAULT_RUNTIME_CONFIG,
    storage: memoryStorage(),
    keyStore: memoryKeyStore(),
    crypto: new FakeCryptoService(),
    fetch: combinedFetch(api, options.otherApi),
  });
  await services.session.signIn({ user: TEST_USER, access: fakeJwt(), vaultKey, stayUnlocked: false });
  const filesCrypto = options.filesCrypto ?? new InlineFilesCrypto({ putPart: api.storage.putPart });
  const transport = options.transport ?? api.storage;
  const notesCrypto = new InlineNotesCrypto();
  const router = createMemoryRouter(routes, { initialEntries: [options.path ?? routes[0]?.path ?? '/'] });
  // The dialog's own checks are under test: the picker's `accept` must not filter the files first.
  const user = userEvent.setup({
    applyAccept: false,
    ...(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {}),
  });
  const view = render(
    <Providers services={services} filesCrypto={filesCrypto} transport={transport} notesCrypto={notesCrypto}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, api, services, router, user, vaultKey, filesCrypto, transport };
}

function Providers({
  services,
  filesCrypto,
  transport,
  notesCrypto,
  children,
}: {
  services: AppServices;
  filesCrypto: FilesCrypto;
  transport: UploadTransport;
  notesCrypto: NotesCrypto;
  children: ReactNode;
}) {
  return (
    <AppProviders services={services}>
      <NotesCryptoProvider service={notesCrypto}>
        <FilesCryptoProvider service={filesCrypto}>
          <UploadTransportProvider transport={transport}>{children}</UploadTransportProvider>
        </FilesCryptoProvider>
      </NotesCryptoProvider>
    </AppProviders>
  );
}
