import {
  ACCOUNT_PURGE_JOB,
  ACCOUNT_PURGE_QUEUES,
  NOTES_PATTERNS as P,
  type NoteResponse,
} from '@vault/contracts';
import { AccountPurgeConsumer } from '@vault/server-kit';
import { runQueuedJob } from '@vault/server-kit/testing';
import type { Job } from 'bullmq';
import { noteBody, startNotesTestApp, testAppPerFile, type TestUser } from './support/notes-test-app';

describe(AccountPurgeConsumer.name, () => {
  const t = testAppPerFile(() => startNotesTestApp('purge'));

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
  const runJob = (data: unknown, jobId: string): Promise<Job> =>
    runQueuedJob(t.queue(ACCOUNT_PURGE_QUEUES.notes), ACCOUNT_PURGE_JOB, data, { jobId, attempts: 3 });

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
