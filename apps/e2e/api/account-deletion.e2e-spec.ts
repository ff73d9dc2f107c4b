/**
 * Account deletion end to end (DELETE /api/auth/account): auth deletes the account and revokes its
 * sessions, and the notes and files services purge the user's data from the BullMQ jobs auth queues.
 * Checked from the outside and at rest: the run's Postgres, Redis and local storage folder, and the S3
 * object through a signed URL taken before the deletion.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REFRESH_COOKIE, type DownloadUrlResponse, type FileDto } from '@vault/contracts';
import { Client } from 'pg';
import { login, signUp, type TestAccount } from '../support/accounts';
import { e2eEnv, sleep } from '../support/env';
import { expectError, meStatus } from '../support/expect';
import { absoluteUrl, putBytes, requestUpload, sealFile, uploadFile } from '../support/files';
import { ApiClient, assertStatus, isCookieCleared } from '../support/http';
import { createNote } from '../support/notes';
import { dumpRedis } from '../support/stores';

const env = e2eEnv();
const DELETE = '/api/auth/account';

describe('DELETE /api/auth/account', () => {
  let pg: Client;

  beforeAll(async () => {
    pg = new Client({ connectionString: env.databaseUrl });
    await pg.connect();
  });

  afterAll(async () => {
    await pg?.end();
  });

  const count = async (sql: string, id: string): Promise<number> =>
    Number((await pg.query<{ n: string }>(sql, [id])).rows[0]?.n);
  const notesOf = (id: string) => count(`SELECT count(*) AS n FROM notes.notes WHERE owner_id = $1`, id);
  const filesOf = (id: string) => count(`SELECT count(*) AS n FROM files.files WHERE owner_id = $1`, id);

  /** Every row of every auth table that names the user (users.id, and any user_id column). */
  async function authRowsOf(id: string): Promise<number> {
    const columns = await pg.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'auth' AND column_name = 'user_id'`,
    );
    let rows = await count(`SELECT count(*) AS n FROM auth.users WHERE id = $1`, id);
    for (const { table_name: table } of columns.rows) {
      rows += await count(
        `SELECT count(*) AS n FROM auth."${table.replace(/"/g, '""')}" WHERE user_id = $1`,
        id,
      );
    }
    return rows;
  }

  /** Redis keys (outside the job queues and rate-limit counters) whose name or value names the user. */
  async function redisKeysNaming(id: string): Promise<string[]> {
    const prefix = env.redisPrefix ?? '';
    // Job queues hold the purge jobs themselves; rl: are the gateway's short rate-limit counters.
    const outsideQueues = (key: string) =>
      !key.startsWith(`${prefix}bull:`) && !key.startsWith(`${prefix}rl:`);
    const stored = await dumpRedis(env.redisUrl ?? '', prefix, outsideQueues);
    // A text is the key's name and its value; its name is `redis:<key>`.
    return stored.filter((s) => s.content.includes(id)).map((s) => s.name.slice('redis:'.length));
  }

  /** A user with two notes (one in the trash), local and S3 files (one in the trash), a pending upload and two sessions. */
  async function populatedAccount() {
    const account = await signUp();
    const second = new ApiClient(`${account.identity.username}-phone`);
    assertStatus(await login(second, account.identity.email, account.keys.authKey), 200, 'second sign-in');

    await createNote(account, { title: 'kept', content: 'a', tags: [] });
    const trashedNote = await createNote(account, { title: 'trashed', content: 'b', tags: [] });
    assertStatus(await account.client.delete(`/api/notes/${trashedNote.note.id}`), 204, 'trash note');

    const files: FileDto[] = [];
    for (const storage of ['local', 's3', 'local'] as const) {
      files.push(
        (await uploadFile(account, randomBytes(2_000), { name: 'f', mimeType: 'x/y', tags: [] }, storage))
          .file,
      );
    }
    assertStatus(await account.client.delete(`/api/files/${files[2]!.id}`), 204, 'trash file');
    // An upload that was sent but never completed.
    const pending = await sealFile(account, randomBytes(500), { name: 'p', mimeType: 'x/y', tags: [] });
    const started = await requestUpload(account, pending);
    expect((await putBytes(started.uploadUrl, pending.ciphertext)).status).toBeLessThan(300);

    // A signed GET of the S3 object, taken now: after the purge it must find nothing.
    const s3Link = assertStatus(
      await account.client.post<DownloadUrlResponse>(`/api/files/${files[1]!.id}/download-url`, {
        authKey: account.keys.authKey,
      }),
      200,
      'download-url',
    ).body.downloadUrl;
    expect((await fetch(absoluteUrl(s3Link))).status).toBe(200);
    return { account, second, s3Link, userId: account.user.id };
  }

  async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  it('removes the account, its sessions, notes, files and stored objects; nothing lets it back in', async () => {
    const { account, second, s3Link, userId } = await populatedAccount();
    expect(await notesOf(userId)).toBe(2);
    expect(await filesOf(userId)).toBe(4);
    const userDir = join(env.storageRoot ?? '', userId);
    expect(readdirSync(userDir)).toHaveLength(3);
    expect(await redisKeysNaming(userId)).not.toEqual([]);

    const res = await account.client.delete(DELETE, { json: { authKey: account.keys.authKey } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const cleared = res.cookie(REFRESH_COOKIE.name);
    expect(cleared && isCookieCleared(cleared)).toBe(true);

    // Auth's part is done when the answer comes; the purges follow from the queue.
    expect(await authRowsOf(userId)).toBe(0);
    expect(await redisKeysNaming(userId)).toEqual([]);
    await until(
      'the notes and files purges',
      async () => (await notesOf(userId)) + (await filesOf(userId)) === 0,
    );
    await until('the stored objects', async () => !existsSync(userDir) || readdirSync(userDir).length === 0);
    expect((await fetch(absoluteUrl(s3Link))).status).toBe(404);

    // The admins' trace outlives the account, without personal data.
    const audit = await pg.query(
      `SELECT user_id, details FROM auth.security_events WHERE event_type = 'account_deleted' AND details->>'userId' = $1`,
      [userId],
    );
    expect(audit.rows).toEqual([{ user_id: null, details: { userId } }]);

    expect(await meStatus(account.client)).toBe(401);
    expect(await meStatus(second)).toBe(401);
    expect((await second.post('/api/auth/refresh')).status).toBe(401);
    expectError(
      await login(new ApiClient('after'), account.identity.username, account.keys.authKey),
      401,
      'Invalid credentials',
    );
    // The name and the address are free again.
    const again = await signUp({
      identity: { ...account.identity, password: `${account.identity.password}x` },
    });
    expect(again.user.id).not.toBe(userId);
  });

  it('answers 401 Invalid password for a wrong key and changes nothing', async () => {
    const { account, second, userId } = await populatedAccount();
    const wrong = randomBytes(32).toString('hex');
    expectError(await account.client.delete(DELETE, { json: { authKey: wrong } }), 401, 'Invalid password');
    expectError(await account.client.delete(DELETE, { json: {} }), 400, 'Please fill in all fields');

    await sleep(500); // a purge, if one had been queued, would have started by now
    expect(await meStatus(account.client)).toBe(200);
    expect(await meStatus(second)).toBe(200);
    expect((await second.post('/api/auth/refresh')).status).toBe(200);
    expect(await notesOf(userId)).toBe(2);
    expect(await filesOf(userId)).toBe(4);
    expect(readdirSync(join(env.storageRoot ?? '', userId))).toHaveLength(3);
    expect(await count(`SELECT count(*) AS n FROM auth.users WHERE id = $1`, userId)).toBe(1);
    const events = await pg.query(
      `SELECT details FROM auth.security_events WHERE user_id = $1 AND event_type = 'reauth_failure'`,
      [userId],
    );
    expect(events.rows).toEqual([{ details: expect.objectContaining({ purpose: 'account_deletion' }) }]);
  });

  it('needs a signed-in caller', async () => {
    const account: TestAccount = await signUp();
    expect(
      (await account.client.delete(DELETE, { json: { authKey: account.keys.authKey }, token: null })).status,
    ).toBe(401);
    expect(await meStatus(account.client)).toBe(200);
  });
});
