import { createAccount, encryptFileMetadata, newItemId, type CreatedAccount } from '@vault/crypto';
import type { FileDto } from '@vault/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { json } from '../../../testing/fake-server';
import { CryptoOps } from '../../../workers/crypto-ops';
import type { FakeCryptoService } from '../../../testing/fake-crypto';
import { FakeNotesApi, makeVaultKey, renderNotes, sealNote } from '../../notes/testing/notes-harness';
import type { LegacyKey } from '../api/legacy-keys';
import { withRecoveryCrypto } from '../testing/fake-recovery-crypto';
import { LEGACY_TEXT } from './legacy-keys-banner';

/** The protocol's floor: the cheapest parameters a client accepts (keeps the real Argon2id fast here). */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };
const OLD_PASSWORD = 'Old-horse-11';
const LEGACY_ID = '0b6f8f8e-5d1a-4f6e-9a51-3c2d1e0f9a8b';

/** The notes API plus the legacy-keys and file-list calls the unlock makes. */
class LegacyApi extends FakeNotesApi {
  keys: LegacyKey[] = [];
  files: FileDto[] = [];

  protected override handle(route: string, req: { method: string; path: string; body: unknown }): Response {
    if (route === 'GET /api/auth/legacy-keys') return json(200, { keys: this.keys });
    if (route.startsWith('DELETE /api/auth/legacy-keys/')) {
      const id = req.path.split('/').pop();
      this.keys = this.keys.filter((k) => k.id !== id);
      return json(204);
    }
    if (route === 'GET /api/files') return json(200, { files: this.files });
    if (route === 'GET /api/files/deleted') return json(200, { files: [] });
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

async function fileUnder(key: CryptoKey): Promise<FileDto> {
  const id = newItemId();
  const meta = await encryptFileMetadata(key, id, { name: 'old.txt', mimeType: 'text/plain', tags: [] });
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
    deletedAt: null,
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
    expect(api.calls('PUT /api/notes/:id')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Old password'));
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Unlocked 1 note.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'From before' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Locked note' })).toBeNull();
    expect(screen.queryByText(LEGACY_TEXT.banner)).toBeNull();

    // Only the wrapped key changed: the sealed fields went back as they were.
    const [put] = api.calls('PUT /api/notes/:id');
    const before = api.active[0]!;
    expect(put?.body).toMatchObject({ title: before.title, content: before.content, tags: before.tags });
    expect(
      api.requests.filter((r) => r.method === 'DELETE' && r.path === `/api/auth/legacy-keys/${LEGACY_ID}`),
    ).toHaveLength(1);
    expect(JSON.stringify(api.requests)).not.toContain(OLD_PASSWORD);
  });

  it('keeps the legacy key while a trashed note or a file still needs it, and says so', async () => {
    const a = await old();
    const api = new LegacyApi(
      [await sealNote(a.vaultKey, { title: 'Active old' })],
      [await sealNote(a.vaultKey, { title: 'Binned old' }, { deletedAt: '2026-06-02T00:00:00.000Z' })],
    );
    api.keys = [await legacyKey()];
    api.files = [await fileUnder(a.vaultKey)];
    const { user } = await setup(api);
    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Old password'), OLD_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    const done = await screen.findByText(/^Unlocked 1 note\./);
    expect(done.textContent).toContain('1 note in the trash stays locked');
    expect(done.textContent).toContain('1 file stays locked');
    expect(await screen.findByRole('button', { name: 'Active old' })).toBeTruthy();
    expect(
      api.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/api/auth/legacy-keys')),
    ).toHaveLength(0);
    expect(screen.getByText(LEGACY_TEXT.banner)).toBeTruthy();
  });
});
