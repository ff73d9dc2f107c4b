/**
 * The legacy unlock over HTTP (issue 5): after an access reset without the recovery key the old
 * notes and files keep item keys wrapped under the OLD vault key. With the old password the client
 * opens the legacy key (GET /api/auth/legacy-keys), re-wraps each item key under the new vault key
 * and sends it with PUT /api/notes/{id}/key and PUT /api/files/{id}/key, active and trashed items
 * alike; then everything opens under the new vault key alone.
 */
import type {
  AuthResponse,
  DeletedNoteListResponse,
  FileListResponse,
  LegacyKeysResponse,
  NoteListResponse,
} from '@vault/contracts';
import {
  decryptFileMetadata,
  decryptNote,
  importVaultKey,
  newItemId,
  randomBytes,
  rewrapFileKey,
  rewrapNoteKey,
  unlockVault,
  unwrapVaultKeyRaw,
} from '@vault/crypto';
import { signUp, type TestAccount } from '../support/accounts';
import { expectError } from '../support/expect';
import { downloadFile, uploadFile } from '../support/files';
import { ApiClient, assertStatus } from '../support/http';
import { createNote } from '../support/notes';
import { mailCode, newVaultKeyBody, RECOVERY as R, verifyEmail } from '../support/recovery';

const KEPT = { title: 'Kept note', content: 'written before the reset', tags: ['old'] };
const BINNED = { title: 'Binned note', content: 'in the trash at the reset', tags: [] };
const FILE_META = { name: 'before.txt', mimeType: 'text/plain', tags: ['old'] };
const BINNED_FILE_META = { name: 'binned.bin', mimeType: 'application/zip', tags: [] };

/** E-mail code → bypass token → reset with a new vault key: the new browser and its vault key. */
async function resetWithoutRecoveryKey(account: TestAccount) {
  const email = account.identity.email;
  const verified = assertStatus(await verifyEmail(email, await mailCode(email)), 200, 'verify-email');
  const password = `Reset-${randomBytes(4).join('')}-Aa1`;
  const body = await newVaultKeyBody(verified.body.bypassToken, password);
  const browser = new ApiClient('legacy-after-reset');
  const reset = assertStatus(
    await browser.post<AuthResponse>(`${R}/reset`, body, { token: null }),
    200,
    'reset',
  );
  browser.access = reset.body.access;
  const { vaultKey } = await unlockVault(password, body);
  // The account as the device now holds it: new authKey and vault key, the new session.
  const { authKey, salt, kdfParams, wrappedVaultKey } = body;
  const after: TestAccount = {
    ...account,
    client: browser,
    keys: { authKey, salt, kdfParams, wrappedVaultKey, vaultKey },
  };
  return { after, browser, vaultKey };
}

describe('legacy unlock: re-wrapping item keys after an access reset (api)', () => {
  it('moves notes and files, active and trashed, under the new vault key; other users get 404', async () => {
    const account = await signUp();
    const kept = (await createNote(account, KEPT)).note;
    const binned = (await createNote(account, BINNED)).note;
    assertStatus(await account.client.delete(`/api/notes/${binned.id}`), 204, 'trash note');
    const bytes = randomBytes(70_000);
    const { file } = await uploadFile(account, bytes, FILE_META);
    const { file: binnedFile } = await uploadFile(account, randomBytes(100), BINNED_FILE_META);
    assertStatus(await account.client.delete(`/api/files/${binnedFile.id}`), 204, 'trash file');

    const { after, browser, vaultKey } = await resetWithoutRecoveryKey(account);

    // Locked: nothing opens under the new vault key yet.
    const before = assertStatus(await browser.get<NoteListResponse>('/api/notes'), 200, 'notes');
    await expect(decryptNote(vaultKey, before.body.notes[0]!)).rejects.toThrow();
    const listed = assertStatus(await browser.get<FileListResponse>('/api/files'), 200, 'files');
    await expect(decryptFileMetadata(vaultKey, file.id, listed.body.files[0]!)).rejects.toThrow();

    // The old password opens the legacy key on the device.
    const legacy = assertStatus(await browser.get<LegacyKeysResponse>('/api/auth/legacy-keys'), 200, 'keys');
    expect(legacy.body.keys).toHaveLength(1);
    const oldKey = legacy.body.keys[0]!;
    const oldVaultKey = await importVaultKey(await unwrapVaultKeyRaw(account.identity.password, oldKey));

    const noteKeys = new Map<string, string>();
    for (const note of [kept, binned]) {
      noteKeys.set(note.id, await rewrapNoteKey(oldVaultKey, vaultKey, note.id, note.wrappedDEK));
    }
    const fileKeys = new Map<string, string>();
    for (const f of [file, binnedFile]) {
      fileKeys.set(f.id, await rewrapFileKey(oldVaultKey, vaultKey, f.id, f.wrappedKey));
    }

    // Another user: every one of these ids answers 404, exactly like an unknown one.
    const other = await signUp();
    for (const [id, wrappedDEK] of noteKeys) {
      expectError(await other.client.put(`/api/notes/${id}/key`, { wrappedDEK }), 404, 'Note not found');
    }
    for (const [id, wrappedKey] of fileKeys) {
      expectError(await other.client.put(`/api/files/${id}/key`, { wrappedKey }), 404, 'File not found');
    }
    expect(
      (await other.client.put(`/api/notes/${newItemId()}/key`, { wrappedDEK: noteKeys.get(kept.id) })).status,
    ).toBe(404);

    // A malformed key is refused at the edge.
    expect((await browser.put(`/api/notes/${kept.id}/key`, { wrappedDEK: 'nope' })).status).toBe(400);
    expect((await browser.put(`/api/files/${file.id}/key`, { wrappedKey: 'nope' })).status).toBe(400);
    expect((await browser.put(`/api/files/${file.id}/key`, {})).status).toBe(400);

    // The owner re-wraps all four.
    for (const [id, wrappedDEK] of noteKeys) {
      expect((await browser.put(`/api/notes/${id}/key`, { wrappedDEK })).status).toBe(204);
    }
    for (const [id, wrappedKey] of fileKeys) {
      expect((await browser.put(`/api/files/${id}/key`, { wrappedKey })).status).toBe(204);
    }

    // Everything opens under the new vault key alone; the trashed items stay in the trash, and the
    // note keeps its updatedAt (a re-wrap is not an edit).
    const notes = assertStatus(await browser.get<NoteListResponse>('/api/notes'), 200, 'notes').body.notes;
    expect(notes.map((n) => n.id)).toEqual([kept.id]);
    expect(notes[0]).toEqual({ ...kept, wrappedDEK: noteKeys.get(kept.id) });
    await expect(decryptNote(vaultKey, notes[0]!)).resolves.toEqual(KEPT);
    const trash = assertStatus(
      await browser.get<DeletedNoteListResponse>('/api/notes/deleted'),
      200,
      'trash',
    );
    expect(trash.body.notes.map((n) => n.id)).toEqual([binned.id]);
    await expect(decryptNote(vaultKey, trash.body.notes[0]!)).resolves.toEqual(BINNED);

    const files = assertStatus(await browser.get<FileListResponse>('/api/files'), 200, 'files').body.files;
    expect(files.map((f) => f.id)).toEqual([file.id]);
    expect(files[0]!.wrappedKey).toBe(fileKeys.get(file.id));
    await expect(decryptFileMetadata(vaultKey, file.id, files[0]!)).resolves.toEqual(FILE_META);
    expect(Buffer.from(await downloadFile(after, files[0]!)).equals(Buffer.from(bytes))).toBe(true);
    const binnedFiles = assertStatus(
      await browser.get<FileListResponse>('/api/files/deleted'),
      200,
      'files trash',
    ).body.files;
    expect(binnedFiles.map((f) => f.id)).toEqual([binnedFile.id]);
    await expect(decryptFileMetadata(vaultKey, binnedFile.id, binnedFiles[0]!)).resolves.toEqual(
      BINNED_FILE_META,
    );

    // Nothing is left under the legacy key: the client may now delete it.
    expect((await browser.delete(`/api/auth/legacy-keys/${oldKey.id}`)).status).toBe(204);
    expect((await browser.get<LegacyKeysResponse>('/api/auth/legacy-keys')).body.keys).toEqual([]);
  });
});
