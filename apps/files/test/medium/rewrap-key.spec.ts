import {
  ErrorCode,
  FILES_PATTERNS,
  type FileEncryptionMetadata,
  type FileListResponse,
  type FileResponse,
} from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { FilesService } from '../../src/services/files.service';
import {
  sealedValue,
  startFilesTestApp,
  testAppPerFile,
  uploadBody,
  type TestUser,
} from './support/files-test-app';

const P = FILES_PATTERNS;

describe(`${FilesService.name}: files.rewrap-key (legacy-key re-wrap after an access reset)`, () => {
  const t = testAppPerFile(() => startFilesTestApp('rewrap'));

  /** upload-url → PUT the bytes on the blob route → (optionally) upload-complete. */
  async function upload(u: TestUser, complete = true) {
    const body = uploadBody(1_000, 'local');
    await t.startUpload(u, body);
    if (!complete) return { id: body.fileId, wrappedKey: body.wrappedKey };
    return (await u.call<FileResponse>(P.completeUpload, { fileId: body.fileId })).file;
  }
  const active = async (u: TestUser) => (await u.call<FileListResponse>(P.list)).files;
  const trash = async (u: TestUser) => (await u.call<FileListResponse>(P.listDeleted)).files;
  const newKey = () => sealedValue(32);

  it('replaces only wrappedKey of an active file; the list and the metadata answer the new one', async () => {
    const u = await t.user();
    const file = await upload(u);
    const rewrapped = newKey();

    expect(await u.call(P.rewrapKey, { id: file.id, wrappedKey: rewrapped })).toBeNull();

    expect(await active(u)).toEqual([{ ...file, wrappedKey: rewrapped }]);
    const metadata = await u.call<FileEncryptionMetadata>(P.metadata, { id: file.id });
    expect(metadata.wrappedKey).toBe(rewrapped);
  });

  it('re-wraps a file in the trash, which stays there with its deletedAt', async () => {
    const u = await t.user();
    const file = await upload(u);
    await u.call(P.remove, { id: file.id });
    const [before] = await trash(u);
    const rewrapped = newKey();

    await u.call(P.rewrapKey, { id: file.id, wrappedKey: rewrapped });

    expect(await trash(u)).toEqual([{ ...before, wrappedKey: rewrapped }]);
    expect(await active(u)).toEqual([]);
  });

  it('answers 404 to another user’s file (active or trashed) and leaves it untouched', async () => {
    const owner = await t.user();
    const other = await t.user();
    const kept = await upload(owner);
    const trashed = await upload(owner);
    await owner.call(P.remove, { id: trashed.id });

    for (const id of [kept.id, trashed.id]) {
      const error = await other.fail(P.rewrapKey, { id, wrappedKey: newKey() });
      expect({ code: error.code, message: error.message }).toEqual({
        code: ErrorCode.NOT_FOUND,
        message: 'File not found',
      });
    }
    expect((await active(owner))[0]?.wrappedKey).toBe(kept.wrappedKey);
    expect((await trash(owner))[0]?.wrappedKey).toBe(trashed.wrappedKey);
  });

  it('answers 404 to a pending upload (its key stays the one it is uploaded with) and to an unknown id', async () => {
    const u = await t.user();
    const pending = await upload(u, false);
    expect((await u.fail(P.rewrapKey, { id: pending.id, wrappedKey: newKey() })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const row = await t.pg.query(`SELECT wrapped_key FROM files.files WHERE id = $1`, [pending.id]);
    expect(row.rows[0]?.wrapped_key).toBe(pending.wrappedKey);
    expect((await u.fail(P.rewrapKey, { id: randomUUID(), wrappedKey: newKey() })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('answers 400 to a malformed wrapped key, a bad id or any other field, and changes nothing', async () => {
    const u = await t.user();
    const file = await upload(u);
    const bad = [
      { id: file.id, wrappedKey: 'not-sealed' },
      { id: file.id, wrappedKey: newKey().toUpperCase() },
      { id: file.id, wrappedKey: `${newKey()}:extra` },
      { id: file.id },
      { id: 'not-a-uuid', wrappedKey: newKey() },
      { id: file.id, wrappedKey: newKey(), encryptedName: sealedValue(10) },
    ];
    for (const body of bad) {
      expect({ body, code: (await u.fail(P.rewrapKey, body)).code }).toEqual({
        body,
        code: ErrorCode.VALIDATION_FAILED,
      });
    }
    expect(await active(u)).toEqual([file]);
  });

  it('logs no key', async () => {
    const u = await t.user();
    const file = await upload(u);
    const rewrapped = newKey();
    await u.call(P.rewrapKey, { id: file.id, wrappedKey: rewrapped });
    expect(t.logs.join('\n')).not.toContain(rewrapped);
  });
});
