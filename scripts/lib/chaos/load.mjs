// The steady load of the chaos tier (scripts/chaos-e2e.mjs): a few accounts, each driven by its own
// loop that creates, updates and lists sealed notes, stores small batches and signs in again, all
// through the gateway as the web app does (notes sealed with @vault/crypto). Every answer is
// recorded; every write answered 2xx is remembered, so that `verify` can check afterwards that
// each one is readable and that no write was half done.
import { encryptNote, newItemId, updateNote } from '@vault/crypto';
import { sleep } from '../util.mjs';
import { adminSignIn, call, signIn } from './client.mjs';

const noteBody = (sealed) => ({
  id: sealed.id,
  title: sealed.title,
  content: sealed.content,
  tags: [...sealed.tags],
  wrappedDEK: sealed.wrappedDEK,
});
const sameNote = (dto, sealed) =>
  dto.title === sealed.title && dto.content === sealed.content && dto.wrappedDEK === sealed.wrappedDEK;

/** Is this a failure the faults may cause: a 503 that says so, or no answer while the gateway is down. */
export function isClearUnavailable(res) {
  return res.status === 503 && res.body?.code === 'SERVICE_UNAVAILABLE';
}

/**
 * The load: `start()` runs one loop per account until `stop()`. `events` holds every request:
 * `{op, start, end, status, code}`. A 401 (the session is gone: a Redis restart) makes the loop
 * sign in again, as the web app does.
 */
export class Load {
  /** With `admin` (a console session, client.mjs adminSignIn), one more loop reads the audit log as the console does. */
  constructor(baseUrl, accounts, { admin, env } = {}) {
    this.baseUrl = baseUrl;
    this.accounts = accounts;
    this.admin = admin;
    this.env = env;
    this.events = [];
    /** id → {owner, attempts: [{sealed, status}]}: every write of every note, in order. */
    this.notes = new Map();
    /** Every batch: {owner, ids, status}. */
    this.batches = [];
    this.running = false;
    this.loops = [];
  }

  start() {
    this.running = true;
    this.loops = this.accounts.map((account, i) => this.loop(account, i));
    if (this.admin) this.loops.push(this.adminLoop());
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
  }

  record(op, t0, res) {
    this.events.push({
      op,
      start: t0,
      end: Date.now(),
      status: res.status,
      code: res.body?.code,
      error: res.error,
    });
    return res;
  }

  async request(account, op, method, path, body) {
    const t0 = Date.now();
    return this.record(
      op,
      t0,
      await call(this.baseUrl, method, path, { body, token: account.token, ip: account.ip }),
    );
  }

  async adminLoop() {
    const admin = this.admin;
    while (this.running) {
      const t0 = Date.now();
      const res = this.record(
        'admin',
        t0,
        await call(this.baseUrl, 'GET', '/api/admin/audit?limit=1', { cookie: admin.cookie, ip: admin.ip }),
      );
      // The console's session is gone (a Redis restart): sign in again, as the admin would.
      if (res.status === 401) {
        const t1 = Date.now();
        this.record('admin-signin', t1, await adminSignIn(this.baseUrl, this.env, admin));
      }
      await sleep(res.status === 200 ? 150 : 300);
    }
  }

  async loop(account, index) {
    const mine = [];
    let n = 0;
    while (this.running) {
      n += 1;
      const pick = (n + index) % 10;
      let res;
      if (pick === 9) {
        res = this.record('signin', Date.now(), await signIn(this.baseUrl, account));
      } else if (pick === 8) {
        const sealed = await Promise.all(
          [0, 1, 2].map((k) =>
            encryptNote(account.keys.vaultKey, newItemId(), {
              title: `b${n}.${k}`,
              content: `batch ${n}`,
              tags: [],
            }),
          ),
        );
        const batch = { owner: account.userId, ids: sealed.map((s) => s.id), status: 0 };
        this.batches.push(batch);
        res = await this.request(account, 'batch', 'POST', '/api/notes/batch', {
          notes: sealed.map(noteBody),
        });
        batch.status = res.status;
        for (const s of sealed)
          this.notes.set(s.id, { owner: account.userId, attempts: [{ sealed: s, status: res.status }] });
      } else if ((pick === 1 || pick === 4 || pick === 6) && mine.length > 0) {
        const id = mine[n % mine.length];
        const note = this.notes.get(id);
        const current = note.attempts[note.attempts.length - 1].sealed;
        const sealed = await updateNote(account.keys.vaultKey, current, {
          title: `u${n}`,
          content: `update ${n}`,
          tags: ['t'],
        });
        const attempt = { sealed: { ...sealed, id }, status: 0 };
        note.attempts.push(attempt);
        const { id: _id, ...fields } = noteBody(attempt.sealed);
        res = await this.request(account, 'update', 'PUT', `/api/notes/${id}`, fields);
        attempt.status = res.status;
      } else if (pick === 2) {
        res = await this.request(account, 'list', 'GET', '/api/notes?limit=50');
      } else if (pick === 5) {
        res = await this.request(account, 'files', 'GET', '/api/files');
      } else {
        const sealed = await encryptNote(account.keys.vaultKey, newItemId(), {
          title: `n${n}`,
          content: `note ${n}`,
          tags: ['x'],
        });
        const attempt = { sealed, status: 0 };
        this.notes.set(sealed.id, { owner: account.userId, attempts: [attempt] });
        res = await this.request(account, 'create', 'POST', '/api/notes', noteBody(sealed));
        attempt.status = res.status;
        if (res.status === 201) mine.push(sealed.id);
      }
      if (res.status === 401) this.record('signin', Date.now(), await signIn(this.baseUrl, account));
      // Requests that fail fast (a service down) would otherwise spin: the web app waits too.
      await sleep(res.status >= 200 && res.status < 300 ? 15 : 100);
    }
  }

  /** The events that ended in [from, to). */
  between(from, to = Infinity) {
    return this.events.filter((e) => e.end >= from && e.end < to);
  }

  /**
   * Answers that no fault may cause, in [from, to): anything but 2xx, a clear 503, a 401 (a session
   * lost with Redis; the loop signs in again) or, only where `allowNoAnswer`, no answer at all.
   */
  unexpected(from, to, { allowNoAnswer = false } = {}) {
    return this.between(from, to).filter(
      (e) =>
        !(e.status >= 200 && e.status < 300) &&
        !(e.status === 503 && e.code === 'SERVICE_UNAVAILABLE') &&
        e.status !== 401 &&
        !(allowNoAnswer && e.status === 0),
    );
  }

  /**
   * Milliseconds from `from` until traffic is healthy again: the end of the last failed request
   * after `from`, given that since then at least `minOk` requests succeeded, among them one of
   * each kind that failed (a slow service's own route is not hidden by the others' successes).
   * Undefined while it is not (yet) healthy.
   */
  recoveredAfter(from, { minOk = 5 } = {}) {
    const ok = (e) => e.status >= 200 && e.status < 300;
    const events = this.between(from);
    const failed = events.filter((e) => !ok(e));
    const lastFail = failed.reduce((last, e) => Math.max(last, e.end), from);
    const okAfter = events.filter((e) => e.start > lastFail && ok(e));
    const everyKind = [...new Set(failed.map((e) => e.op))].every((op) => okAfter.some((e) => e.op === op));
    return okAfter.length >= minOk && everyKind ? lastFail - from : undefined;
  }

  /** Waits until `recoveredAfter(from)` has a value; returns it (ms). */
  async waitRecovered(from, ms = 60_000, options = {}) {
    const until = Date.now() + ms;
    for (;;) {
      const recovered = this.recoveredAfter(from, options);
      if (recovered !== undefined) return recovered;
      if (Date.now() > until) {
        const tail = this.between(from)
          .slice(-8)
          .map((e) => `${e.op} ${e.status}${e.code ? ` ${e.code}` : ''}${e.error ? ` ${e.error}` : ''}`);
        throw new Error(`traffic did not recover within ${ms / 1000} s; last answers: ${tail.join(', ')}`);
      }
      await sleep(100);
    }
  }

  /** Counts by outcome in [from, to): `{ok, unavailable, unauthorized, noAnswer, other}`. */
  tally(from, to) {
    const out = { ok: 0, unavailable: 0, unauthorized: 0, noAnswer: 0, other: 0 };
    for (const e of this.between(from, to)) {
      if (e.status >= 200 && e.status < 300) out.ok += 1;
      else if (e.status === 503) out.unavailable += 1;
      else if (e.status === 401) out.unauthorized += 1;
      else if (e.status === 0) out.noAnswer += 1;
      else out.other += 1;
    }
    return out;
  }

  /**
   * Every write answered 2xx is readable now, as written or as a later write of the same note (one
   * whose answer was lost may have landed); no batch is half stored; the per-owner counts the
   * triggers keep (notes.note_counts) match the rows. Throws with every problem found.
   */
  async verify(db) {
    const problems = [];
    for (const account of this.accounts) {
      let res = await call(this.baseUrl, 'GET', '/api/notes', { token: account.token, ip: account.ip });
      if (res.status === 401) {
        await signIn(this.baseUrl, account);
        res = await call(this.baseUrl, 'GET', '/api/notes', { token: account.token, ip: account.ip });
      }
      if (res.status !== 200)
        throw new Error(`listing ${account.username}'s notes: ${res.status} ${res.text ?? res.error}`);
      const listed = new Map(res.body.notes.map((n) => [n.id, n]));
      for (const [id, note] of this.notes) {
        if (note.owner !== account.userId) continue;
        const acked = note.attempts.findLastIndex((a) => a.status >= 200 && a.status < 300);
        const dto = listed.get(id);
        if (acked < 0) {
          if (dto && !note.attempts.some((a) => sameNote(dto, a.sealed)))
            problems.push(`note ${id}: stored content was never sent`);
          continue;
        }
        if (!dto)
          problems.push(
            `note ${id}: its write was answered ${note.attempts[acked].status} but the note is gone`,
          );
        else if (!note.attempts.slice(acked).some((a) => sameNote(dto, a.sealed)))
          problems.push(`note ${id}: holds neither its last acknowledged write nor a later one`);
      }
      for (const batch of this.batches.filter((b) => b.owner === account.userId)) {
        const present = batch.ids.filter((id) => listed.has(id)).length;
        if (present !== 0 && present !== batch.ids.length)
          problems.push(`batch ${batch.ids[0]}…: ${present} of ${batch.ids.length} notes stored`);
        if (batch.status >= 200 && batch.status < 300 && present !== batch.ids.length)
          problems.push(`batch ${batch.ids[0]}… was acknowledged but is not stored`);
      }
    }
    const counts = await db.query(
      `SELECT o.owner_id, coalesce(c.notes, 0) AS kept, coalesce(c.deleted_notes, 0) AS kept_deleted,
              count(n.id) FILTER (WHERE NOT n.is_deleted) AS notes, count(n.id) FILTER (WHERE n.is_deleted) AS deleted
         FROM (SELECT owner_id FROM notes.notes UNION SELECT owner_id FROM notes.note_counts) o
         LEFT JOIN notes.note_counts c ON c.owner_id = o.owner_id
         LEFT JOIN notes.notes n ON n.owner_id = o.owner_id
        GROUP BY o.owner_id, c.notes, c.deleted_notes`,
    );
    for (const row of counts.rows) {
      if (Number(row.kept) !== Number(row.notes) || Number(row.kept_deleted) !== Number(row.deleted))
        problems.push(
          `note_counts of ${row.owner_id}: ${row.kept}/${row.kept_deleted}, rows ${row.notes}/${row.deleted}`,
        );
    }
    if (problems.length > 0)
      throw new Error(`${problems.length} problem(s):\n${problems.slice(0, 20).join('\n')}`);
    const acked = [...this.notes.values()].filter((n) =>
      n.attempts.some((a) => a.status >= 200 && a.status < 300),
    ).length;
    return {
      notes: acked,
      writes: this.events.filter(
        (e) => ['create', 'update', 'batch'].includes(e.op) && e.status >= 200 && e.status < 300,
      ).length,
    };
  }
}
