import type { FileDto, StorageType, VirusScanResult } from '@vault/contracts';
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
import { AppProviders, type AppServices } from '../../../app/services';
import { signedInServices } from '../../../testing/signed-in-services';
import { InlineFilesCrypto, type FilesCrypto } from '../../../workers/files-crypto';
import { FilesCryptoProvider } from '../../../workers/files-crypto-context';
import { InlineNotesCrypto, type NotesCrypto } from '../../../workers/notes-crypto';
import { NotesCryptoProvider } from '../../../workers/notes-crypto-context';
import type { UploadTransport } from '../state/upload-transport';
import { UploadTransportProvider } from '../state/upload-transport-context';

export { readBlob } from './fake-storage';

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

export { FakeFilesApi, combinedFetch, filesRouteOf, storageTypesAnswer } from './fake-files-api';
import { FakeFilesApi, combinedFetch } from './fake-files-api';

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
  const services = await signedInServices(combinedFetch(api, options.otherApi), vaultKey);
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
