/**
 * The trash through the gateway: soft delete, the deleted list, restore, permanent delete and Empty Trash,
 * with notes sealed by the real client crypto.
 */
import type {
  DeletedNoteListResponse,
  EmptyTrashResponse,
  NoteCountsResponse,
  NoteResponse,
} from '@vault/contracts';
import { signUp, type TestAccount } from '../support/accounts';
import { expectError, ISO_DATE } from '../support/expect';
import { createNote, listNotes, markedPlaintext, openNote, resealNote, updateBody } from '../support/notes';

describe('/api/notes trash', () => {
  let account: TestAccount;

  beforeEach(async () => {
    account = await signUp();
  });

  const trash = async () =>
    (await account.client.get<DeletedNoteListResponse>('/api/notes/deleted')).body.notes;
  const counts = async () => (await account.client.get<NoteCountsResponse>('/api/notes/counts')).body;

  it('moves a note to the trash and back: delete 204, deleted list, restore, list again', async () => {
    const plaintext = markedPlaintext('trash');
    const { note } = await createNote(account, plaintext);

    const del = await account.client.delete(`/api/notes/${note.id}`);
    expect({ status: del.status, text: del.text }).toEqual({ status: 204, text: '' });
    expect((await listNotes(account.client)).body.notes).toEqual([]);
    const [inTrash] = await trash();
    expect(inTrash).toEqual({ ...note, isDeleted: true, deletedAt: expect.stringMatching(ISO_DATE) });
    expect(await openNote(account, inTrash!)).toEqual(plaintext);
    expect(await counts()).toEqual({ active: 0, deleted: 1 });

    const restored = await account.client.post<NoteResponse>(`/api/notes/${note.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.note).toEqual(note);
    expect((await listNotes(account.client)).body.notes).toEqual([note]);
    expect(await trash()).toEqual([]);
  });

  it('deletes a note of the trash permanently; it is gone for every call after', async () => {
    const { note } = await createNote(account, markedPlaintext('gone'));
    expect((await account.client.delete(`/api/notes/${note.id}`)).status).toBe(204);

    const purge = await account.client.delete(`/api/notes/${note.id}/permanent`);
    expect({ status: purge.status, text: purge.text }).toEqual({ status: 204, text: '' });
    expect(await trash()).toEqual([]);
    expect(await counts()).toEqual({ active: 0, deleted: 0 });
    expectError(await account.client.post(`/api/notes/${note.id}/restore`), 404, 'Note not found');
    expectError(await account.client.delete(`/api/notes/${note.id}/permanent`), 404, 'Note not found');
    expectError(await account.client.delete(`/api/notes/${note.id}`), 404, 'Note not found');
  });

  it('answers 404 to a permanent delete of a note that is not in the trash, and keeps it', async () => {
    const { note } = await createNote(account, markedPlaintext('active'));
    expectError(await account.client.delete(`/api/notes/${note.id}/permanent`), 404, 'Note not found');
    expect((await listNotes(account.client)).body.notes).toEqual([note]);
  });

  it('answers 404 to an update of a note in the trash; after a restore the update goes through', async () => {
    const { note } = await createNote(account, markedPlaintext('frozen'));
    await account.client.delete(`/api/notes/${note.id}`);
    const resealed = await resealNote(account, note, { title: 'Edited', content: '', tags: [] });

    expectError(
      await account.client.put(`/api/notes/${note.id}`, updateBody(resealed)),
      404,
      'Note not found',
    );
    expect((await account.client.post(`/api/notes/${note.id}/restore`)).status).toBe(200);
    expect((await account.client.put(`/api/notes/${note.id}`, updateBody(resealed))).status).toBe(200);
  });

  it('keeps the first deletion time when a note in the trash is deleted again', async () => {
    const { note } = await createNote(account, markedPlaintext('twice'));
    await account.client.delete(`/api/notes/${note.id}`);
    const [first] = await trash();
    expect((await account.client.delete(`/api/notes/${note.id}`)).status).toBe(204);
    expect(await trash()).toEqual([first]);
  });

  it('lists the trash most recently deleted first', async () => {
    const notes = [];
    for (let i = 0; i < 3; i += 1) notes.push((await createNote(account, markedPlaintext('order', i))).note);
    for (const n of [notes[1]!, notes[2]!, notes[0]!]) {
      await account.client.delete(`/api/notes/${n.id}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await trash()).map((n) => n.id)).toEqual([notes[0]!.id, notes[2]!.id, notes[1]!.id]);
  });

  it('empties the trash: every deleted note goes for good, active notes stay', async () => {
    const { note: keep } = await createNote(account, markedPlaintext('keep'));
    for (let i = 0; i < 3; i += 1) {
      const { note } = await createNote(account, markedPlaintext('bin', i));
      await account.client.delete(`/api/notes/${note.id}`);
    }
    expect(await counts()).toEqual({ active: 1, deleted: 3 });

    const res = await account.client.delete<EmptyTrashResponse>('/api/notes/trash');
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { deleted: 3 } });
    expect(await trash()).toEqual([]);
    expect((await listNotes(account.client)).body.notes).toEqual([keep]);
    expect(await counts()).toEqual({ active: 1, deleted: 0 });
    expect((await account.client.delete<EmptyTrashResponse>('/api/notes/trash')).body).toEqual({
      deleted: 0,
    });
  });
});
