import {
  completeUploadBodySchema,
  createUploadBodySchema,
  expectedEncryptedSize,
  type FileDto,
  type StorageType,
  type StorageTypesResponse,
} from '@vault/contracts';
import { TEST_USER, TEST_VAULT, json, readFakeRequest } from '../../../testing/fake-server';
import { FakeRouteApi, routeOf } from '../../../testing/fake-route-api';
import { FakeStorage } from './fake-storage';
import type { SealedTestFile } from './files-harness';

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
  /**
   * upload-url's `partSize` (the real files service offers parts on every storage); none when
   * unset. S3 answers it with `partUrls`, one presigned URL per part, as the real one does.
   */
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
    const { method, path, body, headers } = readFakeRequest(input, init);
    return this.dispatch({ method, path, body, headers });
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
          ...(this.partSize === undefined
            ? {}
            : parsed.data.storageType === 's3'
              ? {
                  partSize: this.partSize,
                  partUrls: Array.from(
                    { length: Math.ceil(parsed.data.encryptedSize / this.partSize) },
                    (_, i) =>
                      `https://bucket.s3.test/vault/${fileId}?partNumber=${i + 1}&X-Amz-Signature=p${i}`,
                  ),
                }
              : { partSize: this.partSize }),
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
