import {
  ACCOUNT_PURGE_JOB,
  ACCOUNT_PURGE_QUEUES,
  NOTES_PATTERNS as P,
  type NoteResponse,
} from '@vault/contracts';
import { createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Queue, type Job } from 'bullmq';
import { AccountPurgeConsumer } from '../../src/handlers/account-purge.consumer';
import {
  noteBody,
  sleep,
  startNotesTestApp,
  type NotesTestApp,
  type TestUser,
} from './support/notes-test-app';

describe(AccountPurgeConsumer.name, () => {
  let t: NotesTestApp;
  let queue: Queue;
  let connection: ReturnType<typeof createQueueConnection>;

  beforeAll(async () => {
    t = await startNotesTestApp('purge');
    connection = createQueueConnection(t.config.redis.url);
    queue = new Queue(ACCOUNT_PURGE_QUEUES.notes, { connection, prefix: queuePrefix(t.config.redis.prefix) });
  });

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await t?.close();
  });

  const notesOf = async (userId: string): Promise<number> =>
    Number(
      (await t.pg.query<{ n: string }>(`SELECT count(*) AS n FROM notes.notes WHERE owner_id = $1`, [userId]))
        .rows[0]?.n,
    );

  async function withNotes(count: number, trashed = 0): Promise<TestUser> {
    const u = await t.user();
    for (let i = 0; i < count; i += 1) {
      const note = await u.call<NoteResponse>(P.create, noteBody());
      if (i < trashed) await u.call(P.remove, { id: note.note.id });
    }
    return u;
  }

  /** Queues a job the way auth does and waits until the consumer has finished it. */
  async function runJob(data: unknown, jobId: string): Promise<Job> {
    await queue.add(ACCOUNT_PURGE_JOB, data, { jobId, attempts: 3 });
    for (let i = 0; i < 200; i += 1) {
      const job = await queue.getJob(jobId);
      const state = await job?.getState();
      if (state === 'completed' || state === 'failed') return job!;
      await sleep(50);
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  it('deletes every note of the user, active and trashed, and nobody else’s', async () => {
    const victim = await withNotes(3, 1);
    const bystander = await withNotes(2);
    expect(await notesOf(victim.auth.userId)).toBe(3);

    const job = await runJob(
      { userId: victim.auth.userId, requestedAt: new Date().toISOString() },
      `purge-${victim.auth.userId}`,
    );
    expect(await job.getState()).toBe('completed');
    expect(job.returnvalue).toBe(3);
    expect(await notesOf(victim.auth.userId)).toBe(0);
    expect(await notesOf(bystander.auth.userId)).toBe(2);
  });

  it('is idempotent: a replay deletes nothing more and succeeds', async () => {
    const victim = await withNotes(1);
    const data = { userId: victim.auth.userId, requestedAt: new Date().toISOString() };
    expect((await runJob(data, `first-${victim.auth.userId}`)).returnvalue).toBe(1);
    const replay = await runJob(data, `replay-${victim.auth.userId}`);
    expect(await replay.getState()).toBe('completed');
    expect(replay.returnvalue).toBe(0);
  });

  it('drops a malformed job without touching any note', async () => {
    const u = await withNotes(1);
    const job = await runJob({ userId: 'not-a-uuid', requestedAt: 'yesterday' }, `bad-${u.auth.userId}`);
    expect(await job.getState()).toBe('completed');
    expect(await notesOf(u.auth.userId)).toBe(1);
    expect(t.logs.join('')).toContain('Dropped a malformed account purge job');
  });
});
