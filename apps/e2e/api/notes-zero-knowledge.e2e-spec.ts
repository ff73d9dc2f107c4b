/**
 * Zero knowledge for notes, checked from the outside: a user types unique markers into the title, the content
 * and the tags of notes, creates, updates, lists, deletes and restores them, and also sends one marker as
 * plaintext in a sealed field (refused). Then every log file of every service, every row of every table and
 * every Redis key of the run are searched for the markers. A single hit is a failure.
 */
import { randomBytes } from 'node:crypto';
import { signUp } from '../support/accounts';
import { e2eEnv } from '../support/env';
import { assertStatus } from '../support/http';
import { findSecrets, logsAfterBarrier, type Secret } from '../support/logs';
import {
  createBody,
  createNote,
  listNotes,
  openNote,
  resealNote,
  sealNote,
  updateBody,
} from '../support/notes';
import { dumpDatabase, dumpRedis } from '../support/stores';

const env = e2eEnv();
const TAG = randomBytes(8).toString('hex');
const MARKERS = {
  title: `ZkNoteTitle${TAG}`,
  content: `ZkNoteBody${TAG}`,
  tag: `ZkNoteTag${TAG}`,
  updated: `ZkNoteEdit${TAG}`,
  refused: `ZkNotePlain${TAG}`,
};
const secrets: Secret[] = [
  ...Object.entries(MARKERS).map(([label, value]) => ({ label: `note ${label} marker`, value })),
  { label: 'marker shared by every field', value: TAG },
];

describe('zero knowledge: what the server keeps of the notes a user types', () => {
  const noteIds: string[] = [];

  beforeAll(async () => {
    const account = await signUp();
    const typed = { title: MARKERS.title, content: `${MARKERS.content}\nmore`, tags: [MARKERS.tag, 'x'] };
    const { note } = await createNote(account, typed);
    const { note: second } = await createNote(account, { ...typed, title: `${MARKERS.title} 2` });
    noteIds.push(note.id, second.id);

    // The device opens what the server answers: the markers are really in these notes.
    expect(
      await openNote(
        account,
        (await listNotes(account.client)).body.notes.find((n) => n.id === note.id)!,
      ),
    ).toEqual(typed);

    const edited = await resealNote(account, note, { ...typed, content: MARKERS.updated });
    assertStatus(await account.client.put(`/api/notes/${note.id}`, updateBody(edited)), 200, 'update');
    assertStatus(await account.client.delete(`/api/notes/${second.id}`), 204, 'delete');
    assertStatus(await account.client.get('/api/notes/deleted'), 200, 'trash');
    assertStatus(await account.client.post(`/api/notes/${second.id}/restore`), 200, 'restore');
    assertStatus(await listNotes(account.client, '?limit=1'), 200, 'page');

    // A faulty client that sends plaintext where a sealed value belongs: refused, and not kept anywhere.
    const faulty = createBody(await sealNote(account, typed));
    assertStatus(
      await account.client.post('/api/notes', { ...faulty, title: MARKERS.refused }),
      400,
      'plaintext title',
    );
  });

  it('keeps every note marker out of every log file of every service', async () => {
    const dir = env.logDir ?? '';
    expect(dir).not.toBe('');
    const { barrierSeen, logs } = await logsAfterBarrier(dir, 'zk-notes-barrier');
    expect(barrierSeen).toBe(true);

    expect(logs.map((l) => l.name)).toEqual(expect.arrayContaining(['gateway.log', 'notes.log']));
    expect(logs.find((l) => l.name === 'notes.log')?.content.length).toBeGreaterThan(0);
    expect(findSecrets(logs, secrets)).toEqual([]);
  });

  it('holds no note marker in the database, which does hold the notes (as ciphertext)', async () => {
    const tables = await dumpDatabase(env.databaseUrl ?? '');
    const notes = tables.filter((t) => t.name === 'notes.notes');
    expect(notes).toHaveLength(1);
    expect(
      findSecrets(
        notes,
        noteIds.map((value) => ({ label: 'note id', value })),
      ),
    ).toHaveLength(2);
    expect(findSecrets(tables, secrets)).toEqual([]);
  });

  it('holds no note marker in Redis', async () => {
    const keys = await dumpRedis(env.redisUrl ?? '', env.redisPrefix ?? '');
    expect(keys.length).toBeGreaterThan(0);
    expect(findSecrets(keys, secrets)).toEqual([]);
  });
});
