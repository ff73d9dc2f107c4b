/**
 * The API smoke of the compose-env tier (scripts/compose-env-e2e.mjs): the stack runs on exactly
 * the environment docker-compose.yml gives each service (production mode, S3 by default through
 * the MinIO stand-in, the scan worker on clamd, mail over SMTP), hosts mapped to this machine.
 */
import { randomBytes } from 'node:crypto';
import type { FileListResponse, NoteListResponse, StorageTypesResponse } from '@vault/contracts';
import { signIn, signUp, type TestAccount } from '../support/accounts';
import { ApiClient, assertStatus } from '../support/http';
import { downloadFile, uploadFile } from '../support/files';
import { createNote, openNote } from '../support/notes';
import { e2eEnv } from '../support/env';

describe('compose environment: the API smoke', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await signUp();
  });

  it('reports every service healthy', async () => {
    const res = await fetch(`${e2eEnv().baseUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      services: { auth: 'ok', notes: 'ok', files: 'ok', redis: 'ok' },
    });
  });

  it('signs in again with the password, and keeps a note readable', async () => {
    const { note } = await createNote(account, { title: 'compose', content: 'on compose env', tags: ['c'] });
    const fresh = new ApiClient();
    const res = await signIn(fresh, account.identity.email, account.identity.password);
    expect(res.status).toBe(200);
    const list = assertStatus(await account.client.get<NoteListResponse>('/api/notes'), 200, 'notes');
    const stored = list.body.notes.find((n) => n.id === note.id);
    expect(stored).toBeDefined();
    expect(await openNote(account, stored!)).toMatchObject({ title: 'compose', content: 'on compose env' });
  });

  it('stores files in S3 by default (the MinIO of compose) and on the local disk, both scanned', async () => {
    const types = assertStatus(
      await account.client.get<StorageTypesResponse>('/api/files/storage-types'),
      200,
      'storage types',
    );
    expect(types.body.default).toBe('s3');
    const uploads = [];
    for (const storage of ['s3', 'local'] as const) {
      const plaintext = randomBytes(200_000);
      const { file } = await uploadFile(
        account,
        plaintext,
        { name: `${storage}.bin`, mimeType: 'application/octet-stream', tags: [] },
        storage,
      );
      expect(Buffer.from(await downloadFile(account, file)).equals(plaintext)).toBe(true);
      uploads.push(file.id);
    }
    let files = new Map<string, string>();
    for (let i = 0; i < 150; i++) {
      const list = await account.client.get<FileListResponse>('/api/files');
      files = new Map(list.body.files.map((f) => [f.id, f.virusScanResult]));
      if (uploads.every((id) => files.get(id) !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const id of uploads) expect(files.get(id)).toBe('clean');
  });
});
