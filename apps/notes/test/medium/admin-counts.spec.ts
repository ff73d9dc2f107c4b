import {
  ACCOUNT_PURGE_JOB,
  ACCOUNT_PURGE_QUEUES,
  ErrorCode,
  NOTES_PATTERNS as P,
  PERMISSIONS,
  type NoteResponse,
  type RpcAdmin,
  type RpcReply,
} from '@vault/contracts';
import { redisKeys } from '@vault/server-kit';
import { adminContext, runQueuedJob, storeAdminSession } from '@vault/server-kit/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { NotesAdminHandler } from '../../src/handlers/notes-admin.handler';
import { noteBody, startNotesTestApp, testAppPerFile, type TestUser } from './support/notes-test-app';

type Counts = RpcReply<'notes.admin.counts'>;

describe(NotesAdminHandler.name, () => {
  const t = testAppPerFile(() => startNotesTestApp('admincounts'));
  const statsReader = adminContext(['stats:read']);
  const usersReader = adminContext(['users:read']);

  const counts = (body: object, ctx = statsReader) => t.call<Counts>(P.adminCounts, body, ctx);
  /** What the table holds, counted the slow way. */
  const truth = async (ownerId?: string): Promise<Counts> => {
    const { rows } = await t.pg.query<Counts>(
      `SELECT count(*) FILTER (WHERE NOT is_deleted)::int AS "notes", count(*) FILTER (WHERE is_deleted)::int AS "deletedNotes"
       FROM notes.notes WHERE $1::uuid IS NULL OR owner_id = $1`,
      [ownerId ?? null],
    );
    return rows[0]!;
  };

  async function withNotes(active: number, trashed: number): Promise<TestUser> {
    const u = await t.user();
    for (let i = 0; i < active + trashed; i += 1) {
      const { note } = await u.call<NoteResponse>(P.create, noteBody());
      if (i < trashed) await u.call(P.remove, { id: note.id });
    }
    return u;
  }

  it('answers one owner’s active and trashed notes, exactly, and nobody else’s', async () => {
    const a = await withNotes(3, 2);
    await withNotes(4, 1);
    const ownerA = { ownerId: a.auth.userId };
    expect(await counts(ownerA, usersReader)).toEqual({ notes: 3, deletedNotes: 2 });

    // A batch, a restore, a permanent delete and an emptied trash move the counts along.
    const batch = [noteBody(), noteBody()];
    await a.call(P.createBatch, { notes: batch });
    await a.call(P.remove, { id: batch[0]!.id });
    const trash = (await a.call<{ notes: { id: string }[] }>(P.listDeleted)).notes;
    await a.call(P.restore, { id: trash.find((n) => n.id !== batch[0]!.id)!.id });
    await a.call(P.purge, { id: batch[0]!.id });
    expect(await counts(ownerA, usersReader)).toEqual({ notes: 5, deletedNotes: 1 });
    await a.call(P.emptyTrash);
    expect(await counts(ownerA, usersReader)).toEqual({ notes: 5, deletedNotes: 0 });
    expect(await counts(ownerA, usersReader)).toEqual(await truth(a.auth.userId));
  });

  it('answers zeros for an owner without notes', async () => {
    expect(await counts({ ownerId: randomUUID() }, usersReader)).toEqual({ notes: 0, deletedNotes: 0 });
  });

  it('answers everyone’s totals, the same as counting every note, through every kind of write', async () => {
    const victim = await withNotes(2, 1);
    await withNotes(1, 1);
    expect(await counts({})).toEqual(await truth());

    // An account purge (the consumer's bulk delete) takes the account's notes off the totals.
    const before = await counts({});
    await runQueuedJob(
      t.queue(ACCOUNT_PURGE_QUEUES.notes),
      ACCOUNT_PURGE_JOB,
      { userId: victim.auth.userId, requestedAt: new Date().toISOString() },
      { jobId: `purge-${victim.auth.userId}` },
    );
    expect(await counts({})).toEqual({ notes: before.notes - 2, deletedNotes: before.deletedNotes - 1 });
    expect(await counts({})).toEqual(await truth());
  });

  it('keeps one counter row per owner that has notes (everyone’s totals sum them)', async () => {
    const owners = await t.pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes.note_counts`);
    const distinct = await t.pg.query<{ n: number }>(
      `SELECT count(DISTINCT owner_id)::int AS n FROM notes.notes`,
    );
    expect(owners.rows[0]!.n).toBe(distinct.rows[0]!.n);
  });

  it('lets a super_admin ask whatever its stored list says', async () => {
    expect(await counts({}, adminContext([], 'super_admin'))).toEqual(await truth());
  });

  describe('refuses', () => {
    it('a call without an admin with ADMIN_REQUIRED, a signed-in user’s included', async () => {
      const u = await t.user();
      expect((await t.fail(P.adminCounts, {})).code).toBe(ErrorCode.ADMIN_REQUIRED);
      expect((await t.fail(P.adminCounts, {}, u.ctx)).code).toBe(ErrorCode.ADMIN_REQUIRED);
    });

    it('everyone’s counts without stats:read, and one owner’s without users:read', async () => {
      const ownerId = randomUUID();
      expect((await t.fail(P.adminCounts, {}, usersReader)).code).toBe(ErrorCode.PERMISSION_DENIED);
      expect((await t.fail(P.adminCounts, { ownerId }, statsReader)).code).toBe(ErrorCode.PERMISSION_DENIED);
      // A regular account's role in the session grants nothing, whatever permissions it lists.
      const notAdmin = adminContext(['stats:read'], 'user');
      expect((await t.fail(P.adminCounts, {}, notAdmin)).code).toBe(ErrorCode.PERMISSION_DENIED);
    });

    describe('a forged admin context (super_admin claimed)', () => {
      const forged = (admin: Partial<RpcAdmin>) => ({
        admin: {
          ...statsReader.admin,
          role: 'super_admin' as const,
          permissions: [...PERMISSIONS],
          ...admin,
        },
      });

      it('without a console session, or naming another admin’s, with UNAUTHENTICATED', async () => {
        for (const admin of [
          { sessionKey: randomBytes(32).toString('hex') },
          { sessionKey: usersReader.admin.sessionKey },
          { id: randomUUID() },
        ]) {
          expect((await t.fail(P.adminCounts, {}, forged(admin))).code).toBe(ErrorCode.UNAUTHENTICATED);
        }
      });

      it('with a live session stored as admin, gets that session’s permissions only', async () => {
        expect(await counts({}, forged({}))).toEqual(await truth());
        const oneOwner = await t.fail(P.adminCounts, { ownerId: randomUUID() }, forged({}));
        expect(oneOwner.code).toBe(ErrorCode.PERMISSION_DENIED);
      });

      it('once the session ended (signed out, locked), with UNAUTHENTICATED', async () => {
        // A session written by hand: adminContext's own are written again before every call.
        const admin: RpcAdmin = {
          ...forged({}).admin,
          id: randomUUID(),
          sessionKey: randomBytes(32).toString('hex'),
        };
        await storeAdminSession(t.redis.client, admin.sessionKey, {
          userId: admin.id,
          role: 'super_admin',
          permissions: [],
        });
        expect(await counts({ ownerId: randomUUID() }, { admin })).toEqual({ notes: 0, deletedNotes: 0 });
        await t.redis.client.del(redisKeys.adminSession(admin.sessionKey));
        expect((await t.fail(P.adminCounts, {}, { admin })).code).toBe(ErrorCode.UNAUTHENTICATED);
      });
    });

    it('a bad owner id or an unknown field with VALIDATION_FAILED', async () => {
      expect((await t.fail(P.adminCounts, { ownerId: 'nope' }, usersReader)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
      expect((await t.fail(P.adminCounts, { everyone: true }, statsReader)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    });
  });
});
