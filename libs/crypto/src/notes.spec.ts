import fc from 'fast-check';
import { decryptNote, encryptNote, rewrapNoteKey, unwrapNoteKey, updateNote } from './notes';
import type { EncryptedNote } from './notes';
import { importVaultKey } from './seal';
import { NOTE_ID, OTHER_KEY_RAW, OTHER_NOTE_ID, vaultKey } from '../test/support/keys';
import { newItemId } from './ids';

const plain = { title: 'Grocery list – café', content: 'milk\neggs', tags: ['home', 'todo'] };

describe('notes', () => {
  let key: CryptoKey;
  beforeAll(async () => {
    key = await vaultKey();
  });

  it('round-trips any title, content and tags (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 6 }),
        async (title, content, tags) => {
          const id = newItemId();
          const enc = await encryptNote(key, id, { title, content, tags });
          expect(enc.id).toBe(id);
          expect(enc.isEncrypted).toBe(true);
          expect(enc.tags).toHaveLength(1);
          expect(await decryptNote(key, enc)).toEqual({ title, content, tags });
        },
      ),
      { numRuns: 50 },
    );
  });

  it('updateNote re-seals every field with fresh IVs under the same dek', async () => {
    const enc = await encryptNote(key, NOTE_ID, plain);
    const next = { title: 'New', content: 'changed', tags: [] };
    const upd = await updateNote(key, enc, next);
    expect(upd.wrappedDEK).toBe(enc.wrappedDEK);
    for (const f of ['title', 'content'] as const)
      expect(upd[f].split(':')[1]).not.toBe(enc[f].split(':')[1]);
    expect(upd.tags[0].split(':')[1]).not.toBe(enc.tags[0].split(':')[1]);
    expect(await decryptNote(key, upd)).toEqual(next);
  });

  describe('refusals', () => {
    let enc: EncryptedNote;
    let other: EncryptedNote;
    beforeAll(async () => {
      enc = await encryptNote(key, NOTE_ID, plain);
      other = await encryptNote(key, OTHER_NOTE_ID, plain);
    });

    it('refuses a title sealed moved to content (wrong field AAD)', async () => {
      await expect(decryptNote(key, { ...enc, content: enc.title })).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
      });
      await expect(decryptNote(key, { ...enc, tags: [enc.title] })).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
      });
    });

    it('refuses a sealed field moved to another note id', async () => {
      await expect(decryptNote(key, { ...enc, id: OTHER_NOTE_ID })).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
      });
      await expect(decryptNote(key, { ...other, title: enc.title })).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
      });
    });

    it("refuses a swapped wrapped key (another note's wrappedDEK)", async () => {
      await expect(decryptNote(key, { ...enc, wrappedDEK: other.wrappedDEK })).rejects.toMatchObject({
        code: 'DECRYPT_FAILED',
        message: expect.stringContaining(`vault:v1:note-key:${NOTE_ID}`),
      });
    });

    it('refuses another vault key', async () => {
      const wrong = await importVaultKey(OTHER_KEY_RAW);
      await expect(decryptNote(wrong, enc)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    });

    it('refuses ids that are not lowercase UUID v4 and malformed notes', async () => {
      for (const id of [
        NOTE_ID.toUpperCase(),
        'note-1',
        '3f2b8c1e-9d4a-1e6f-8a1b-2c3d4e5f6a7b',
        '3f2b8c1e-9d4a-4e6f-7a1b-2c3d4e5f6a7b',
      ]) {
        await expect(encryptNote(key, id, plain)).rejects.toMatchObject({ code: 'BAD_INPUT' });
      }
      await expect(decryptNote(key, { ...enc, isEncrypted: false })).rejects.toMatchObject({
        code: 'BAD_FORMAT',
      });
      await expect(decryptNote(key, { ...enc, tags: [] })).rejects.toMatchObject({
        code: 'BAD_FORMAT',
      });
      await expect(decryptNote(key, { ...enc, title: 'plain text' })).rejects.toMatchObject({
        code: 'BAD_FORMAT',
      });
      await expect(encryptNote(key, NOTE_ID, { ...plain, tags: [1] as never })).rejects.toMatchObject({
        code: 'BAD_INPUT',
      });
    });
  });

  it('rewrapNoteKey moves the dek to a new vault key without touching the fields', async () => {
    const enc = await encryptNote(key, NOTE_ID, plain);
    const newKey = await importVaultKey(OTHER_KEY_RAW);
    const wrappedDEK = await rewrapNoteKey(key, newKey, NOTE_ID, enc.wrappedDEK);
    expect(await decryptNote(newKey, { ...enc, wrappedDEK })).toEqual(plain);
    await expect(unwrapNoteKey(key, NOTE_ID, wrappedDEK)).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
    await expect(rewrapNoteKey(key, newKey, OTHER_NOTE_ID, enc.wrappedDEK)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });
});
