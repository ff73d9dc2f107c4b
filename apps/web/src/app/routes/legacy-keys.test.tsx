import {
  createAccount,
  decryptFileMetadata,
  decryptNote,
  encryptFileMetadata,
  newItemId,
  type CreatedAccount,
} from '@vault/crypto';
import type { FileDto } from '@vault/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  FakeNotesApi,
  makeVaultKey,
  renderNotes,
  sealNote,
} from '../../features/notes/testing/notes-harness';
import type { LegacyKey } from '../../features/recovery/api/legacy-keys';
import { LEGACY_TEXT } from '../../features/recovery/components/legacy-keys-banner';
import type { FakeCryptoService } from '../../testing/fake-crypto';
import { withRecoveryCrypto } from '../../testing/fake-recovery-crypto';
import { json } from '../../testing/fake-server';
import { CryptoOps } from '../../workers/crypto-ops';
import { routes } from '../router';

/** The protocol's floor: the cheapest parameters a client accepts (keeps the real Argon2id fast here). */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };
const OLD_PASSWORD = 'Old-horse-11';
const LEGACY_ID = '0b6f8f8e-5d1a-4f6e-9a51-3c2d1e0f9a8b';

/** The notes API plus the legacy-keys, file-list and key re-wrap calls the unlock makes. */
class LegacyApi extends FakeNotesApi {
  keys: LegacyKey[] = [];
  files: FileDto[] = [];
  deletedFiles: FileDto[] = [];

  /** Every PUT .../key request, as `kind:id`. */
  rewraps(): string[] {
    return this.requests
      .filter((r) => r.method === 'PUT' && r.path.endsWith('/key'))
      .map((r) => `${r.path.split('/')[2] === 'notes' ? 'note' : 'file'}:${r.path.split('/')[3]}`);
  }

  deleteKeyCalls(): number {
    return this.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/api/auth/legacy-keys'))
      .length;
  }

  protected override handle(route: string, req: { method: string; path: string; body: unknown }): Response {
    if (route === 'GET /api/auth/legacy-keys') return json(200, { keys: this.keys });
    if (route.startsWith('DELETE /api/auth/legacy-keys/')) {
      const id = req.path.split('/').pop();
      this.keys = this.keys.filter((k) => k.id !== id);
      return json(204);
    }
    if (route === 'GET /api/files') return json(200, { files: this.files });
    if (route === 'GET /api/files/deleted') return json(200, { files: this.deletedFiles });
    const id = req.path.split('/')[3];
    if (route === 'PUT /api/notes/:id/key') {
      // Only the wrapped key changes, in the trash too; updatedAt stays (as the notes service does).
      const note = [...this.active, ...this.deleted].find((n) => n.id === id);
      if (!note) return json(404, { error: 'Note not found', code: 'NOT_FOUND' });
      note.wrappedDEK = (req.body as { wrappedDEK: string }).wrappedDEK;
      return json(204);
    }
    if (req.method === 'PUT' && req.path.startsWith('/api/files/') && req.path.endsWith('/key')) {
      const file = [...this.files, ...this.deletedFiles].find((f) => f.id === id);
      if (!file) return json(404, { error: 'File not found', code: 'NOT_FOUND' });
      file.wrappedKey = (req.body as { wrappedKey: string }).wrappedKey;
      return json(204);
    }
    return super.handle(route, req as never);
  }
}

let oldAccount: CreatedAccount | null = null;
async function old(): Promise<CreatedAccount> {
  oldAccount ??= await createAccount(OLD_PASSWORD, { kdfParams: FLOOR });
  return oldAccount;
}

async function legacyKey(): Promise<LegacyKey> {
  const a = await old();
  return {
    id: LEGACY_ID,
    wrappedVaultKey: a.wrappedVaultKey,
    salt: a.salt,
    kdfParams: a.kdfParams,
    createdAt: '2026-07-01T09:00:00.000Z',
  };
}

/** Renders /vault with the real legacy re-wrap (CryptoOps) behind the app's fake crypto. */
async function setup(api: LegacyApi) {
  const current = await makeVaultKey();
  const view = await renderNotes(routes, { path: '/vault', api, vaultKey: current });
  const crypto = withRecoveryCrypto(view.services.crypto as FakeCryptoService);
  const ops = new CryptoOps({ kdfParams: FLOOR });
  crypto.rewrapLegacyItems = ops.rewrapLegacyItems.bind(ops);
  return view;
}

async function fileUnder(
  key: CryptoKey,
  name = 'old.txt',
  deletedAt: string | null = null,
): Promise<FileDto> {
  const id = newItemId();
  const meta = await encryptFileMetadata(key, id, { name, mimeType: 'text/plain', tags: [] });
  return {
    id,
    encryptedName: meta.encryptedName,
    encryptedMimeType: meta.encryptedMimeType,
    encryptedTags: meta.encryptedTags,
    wrappedKey: meta.wrappedKey,
    iv: '00'.repeat(12),
    chunkSize: 65536,
    size: 1,
    encryptedSize: 17,
    storageType: 'local',
    uploadedAt: '2026-06-01T00:00:00.000Z',
    deletedAt,
    virusScanned: true,
    virusScanResult: 'clean',
    hasThumbnail: false,
  } as FileDto;
}

describe('legacy keys in the vault', () => {
  it('no banner without legacy keys', async () => {
    const api = new LegacyApi();
    await setup(api);
    await screen.findByText('No notes found');
    await waitFor(() => expect(api.calls('GET /api/auth/legacy-keys')).toHaveLength(1));
    expect(screen.queryByText(LEGACY_TEXT.banner)).toBeNull();
  });

  it('old notes show as locked; the old password moves them under the current key, then the legacy key goes', async () => {
    const a = await old();
    const api = new LegacyApi([await sealNote(a.vaultKey, { title: 'From before', content: 'old body' })]);
    api.keys = [await legacyKey()];
    const { user } = await setup(api);
    expect(await screen.findByText(LEGACY_TEXT.banner)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Locked note' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    const dialog = screen.getByRole('dialog', { name: 'Unlock items from before the reset' });
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter your old password');

    await user.type(within(dialog).getByLabelText('Old password'), 'Wrong-horse-1');
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Incorrect password'));
    expect(api.rewraps()).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Old password'));
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Unlocked 1 note and 0 files.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'From before' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Locked note' })).toBeNull();
    expect(screen.queryByText(LEGACY_TEXT.banner)).toBeNull();

    // Only the wrapped key was sent: no sealed field, no note update.
    const [put] = api.calls('PUT /api/notes/:id/key');
    expect(Object.keys(put?.body as object)).toEqual(['wrappedDEK']);
    expect(api.calls('PUT /api/notes/:id')).toHaveLength(0);
    expect(
      api.requests.filter((r) => r.method === 'DELETE' && r.path === `/api/auth/legacy-keys/${LEGACY_ID}`),
    ).toHaveLength(1);
    expect(JSON.stringify(api.requests)).not.toContain(OLD_PASSWORD);
  });

  it('moves trashed notes and files (active and trashed) too, skips what the current key opens, then deletes the key', async () => {
    const a = await old();
    const api = new LegacyApi(
      [await sealNote(a.vaultKey, { title: 'Active old' })],
      [await sealNote(a.vaultKey, { title: 'Binned old' }, { deletedAt: '2026-06-02T00:00:00.000Z' })],
    );
    api.keys = [await legacyKey()];
    api.files = [await fileUnder(a.vaultKey, 'old.txt')];
    api.deletedFiles = [await fileUnder(a.vaultKey, 'binned.txt', '2026-06-03T00:00:00.000Z')];
    const { user, vaultKey } = await setup(api);
    // Made after the reset: already under the current key, so not sent again.
    const fresh = await fileUnder(vaultKey, 'new.txt');
    api.files.push(fresh);
    const freshKey = fresh.wrappedKey;

    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));

    expect(await screen.findByText('Unlocked 2 notes (1 in the trash) and 2 files.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Active old' })).toBeTruthy();
    expect(api.rewraps().sort()).toEqual(
      [
        `note:${api.active[0]!.id}`,
        `note:${api.deleted[0]!.id}`,
        `file:${api.files[0]!.id}`,
        `file:${api.deletedFiles[0]!.id}`,
      ].sort(),
    );
    expect(fresh.wrappedKey).toBe(freshKey);
    // Everything now opens under the current vault key.
    await expect(decryptNote(vaultKey, api.deleted[0]!)).resolves.toMatchObject({ title: 'Binned old' });
    await expect(decryptFileMetadata(vaultKey, api.files[0]!.id, api.files[0]!)).resolves.toMatchObject({
      name: 'old.txt',
    });
    await expect(
      decryptFileMetadata(vaultKey, api.deletedFiles[0]!.id, api.deletedFiles[0]!),
    ).resolves.toMatchObject({ name: 'binned.txt' });
    expect(api.deleteKeyCalls()).toBe(1);
    expect(screen.queryByText(LEGACY_TEXT.banner)).toBeNull();
  });

  it('keeps the legacy key while a re-wrap could not be saved, and says so; the next unlock finishes', async () => {
    const a = await old();
    const api = new LegacyApi([await sealNote(a.vaultKey, { title: 'Active old' })]);
    api.keys = [await legacyKey()];
    api.files = [await fileUnder(a.vaultKey)];
    const fileId = api.files[0]!.id;
    api.unavailable(`PUT /api/files/${fileId}/key`);
    const { user } = await setup(api);

    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    let dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByText(
        'Unlocked 1 note and 0 files. 1 item could not be saved: unlock again to finish.',
      ),
    ).toBeTruthy();
    expect(api.deleteKeyCalls()).toBe(0);
    expect(screen.getByText(LEGACY_TEXT.banner)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Unlocked 0 notes and 1 file.')).toBeTruthy();
    expect(api.deleteKeyCalls()).toBe(1);
    expect(screen.queryByText(LEGACY_TEXT.banner)).toBeNull();
  });

  it('keeps the legacy key when the files cannot be listed', async () => {
    const a = await old();
    const api = new LegacyApi([await sealNote(a.vaultKey, { title: 'Active old' })]);
    api.keys = [await legacyKey()];
    api.unavailable('GET /api/files');
    const { user } = await setup(api);

    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByText(
        'Unlocked 1 note and 0 files. Your files could not be checked: unlock again to move them too.',
      ),
    ).toBeTruthy();
    expect(api.deleteKeyCalls()).toBe(0);
    expect(screen.getByText(LEGACY_TEXT.banner)).toBeTruthy();
  });
});
