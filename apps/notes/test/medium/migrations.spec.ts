import { loadDatabaseConfig, dataSourceOptions, revertLastMigration, runMigrations } from '@vault/server-kit';
import { queryPlan, testDatabasePerFile } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreateNotesSchema1795400000000 } from '../../src/migrations/1795400000000-create-notes-schema';
import { NoteCounts1795800000000 } from '../../src/migrations/1795800000000-note-counts';
import { notesDatabaseConfig } from '../../src/repositories/connections';
import { NotesRepository } from '../../src/repositories/notes.repository';

describe(CreateNotesSchema1795400000000.name, () => {
  const db = testDatabasePerFile('notesmigrations');

  const tables = () => db.tables('notes');

  const cfg = () => notesDatabaseConfig(loadDatabaseConfig({ DATABASE_URL: db.url }));

  it('creates the notes schema with its table, and records itself', async () => {
    expect(await runMigrations(cfg())).toEqual([
      'CreateNotesSchema1795400000000',
      'NoteListOrder1795600000000',
      'NoteCounts1795800000000',
    ]);
    expect(await tables()).toEqual(['note_counts', 'notes', 'notes_migrations']);
  });

  it('applies nothing the second time', async () => {
    expect(await runMigrations(cfg())).toEqual([]);
  });

  it('creates the documented columns, defaults and indexes', async () => {
    const cols = await db.pg.query<{
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = 'notes' AND table_name = 'notes'`,
    );
    const byName = Object.fromEntries(cols.rows.map((c) => [c.column_name, c]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'id',
        'owner_id',
        'title',
        'content',
        'tags',
        'wrapped_dek',
        'is_encrypted',
        'is_deleted',
        'created_at',
        'updated_at',
        'deleted_at',
        'stored_order',
        'body_hash',
      ].sort(),
    );
    expect(byName.id?.data_type).toBe('uuid');
    expect(byName.owner_id).toMatchObject({ data_type: 'uuid', is_nullable: 'NO' });
    expect(byName.tags?.data_type).toBe('jsonb');
    expect(byName.is_encrypted?.column_default).toBe('true');
    expect(byName.is_deleted?.column_default).toBe('false');
    expect(byName.deleted_at).toMatchObject({ data_type: 'timestamp with time zone', is_nullable: 'YES' });
    expect(byName.stored_order).toMatchObject({ data_type: 'bigint', is_nullable: 'NO' });
    expect(byName.stored_order?.column_default).toMatch(/now\(\)/);

    const idx = await db.pg.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'notes' AND tablename = 'notes'`,
    );
    const defs = Object.fromEntries(idx.rows.map((r) => [r.indexname, r.indexdef]));
    expect(defs.notes_owner_list_idx).toContain(
      '(owner_id, is_deleted, updated_at DESC, stored_order, id DESC)',
    );
    expect(defs.notes_owner_trash_idx).toContain('(owner_id, deleted_at DESC, id DESC) WHERE is_deleted');
  });

  it('refuses a deleted flag without a deletion time, and tags that are not a list', async () => {
    const insert = (isDeleted: boolean, deletedAt: Date | null, tags = '[]') =>
      db.pg.query(
        `INSERT INTO notes.notes (id, owner_id, title, content, tags, wrapped_dek, is_deleted, deleted_at, body_hash)
         VALUES ($1, $2, 'a:b', 'a:b', $3, 'k:i', $4, $5, 'h')`,
        [randomUUID(), randomUUID(), tags, isDeleted, deletedAt],
      );
    await expect(insert(true, null)).rejects.toThrow(/notes_deleted_at_check/);
    await expect(insert(false, new Date())).rejects.toThrow(/notes_deleted_at_check/);
    await expect(insert(false, null, '{"a":1}')).rejects.toThrow(/notes_tags_array_check/);
    await expect(insert(true, new Date())).resolves.toBeDefined();
  });

  describe('the list query on a few thousand rows', () => {
    const owner = randomUUID();
    let ds: DataSource;
    let repo: NotesRepository;

    beforeAll(async () => {
      // 60 users with 80 notes each, and the one we ask about with 1000; a quarter of them in the trash.
      const insert = (owners: string, perOwner: number, params: unknown[] = []) =>
        db.pg.query(
          `INSERT INTO notes.notes (id, owner_id, title, content, tags, wrapped_dek, is_deleted, deleted_at,
                                    created_at, updated_at, body_hash)
           SELECT gen_random_uuid(), o.owner, 'aa:' || repeat('0', 24), repeat('b', 300) || ':' || repeat('0', 24),
                  '[]', 'cc:' || repeat('0', 24), n % 4 = 0, CASE WHEN n % 4 = 0 THEN now() END,
                  now() - n * interval '1 minute', now() - n * interval '1 minute', 'h'
           FROM (${owners}) o, generate_series(1, ${perOwner}) n`,
          params,
        );
      await insert('SELECT gen_random_uuid() AS owner FROM generate_series(1, 60)', 80);
      await insert('SELECT $1::uuid AS owner', 1000, [owner]);
      await db.pg.query('ANALYZE notes.notes');
      ds = new DataSource(dataSourceOptions({ ...cfg(), poolSize: 2 }));
      await ds.initialize();
      repo = new NotesRepository(ds);
    });

    afterAll(async () => {
      await ds?.destroy();
    });

    const plan = (sql: string, params: unknown[]) => queryPlan(db.pg, sql, params);

    it('holds a few thousand rows', async () => {
      const res = await db.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM notes.notes');
      expect(res.rows[0]!.n).toBeGreaterThan(4000);
    });

    it.each([
      ['the first page', { limit: 51 }],
      [
        'a later page (keyset cursor)',
        { limit: 51, after: { updatedAt: new Date(), storedOrder: '0', id: randomUUID() } },
      ],
    ])(
      'reads %s by an index scan of notes_owner_list_idx, already in order (no sort)',
      async (_label, opts) => {
        const [sql, params] = repo.listQuery(owner, opts);
        const planNodes = await plan(sql, params);
        const scans = planNodes.filter((n) => n['Index Name']);
        expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([
          ['Index Scan', 'notes_owner_list_idx'],
        ]);
        expect(planNodes.map((n) => n['Node Type'])).not.toEqual(expect.arrayContaining(['Sort']));
      },
    );

    it.each([
      {
        reads: 'the whole list of one user',
        index: 'notes_owner_list_idx',
        query: () => repo.listQuery(owner),
      },
      {
        reads: 'the trash',
        index: 'notes_owner_trash_idx',
        query: () => repo.trashQuery(owner).getQueryAndParameters(),
      },
    ])('reads $reads through $index, never by scanning the table', async ({ index, query }) => {
      const [sql, params] = query();
      const planNodes = await plan(sql, params);
      expect(planNodes.filter((n) => n['Index Name']).map((n) => n['Index Name'])).toEqual([index]);
      expect(planNodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    });

    it('answers the page the query asks for', async () => {
      const page = await repo.listActive(owner, { limit: 10 });
      expect(page).toHaveLength(10);
      const owned = await db.pg.query<{ id: string }>(
        'SELECT id FROM notes.notes WHERE owner_id = $1 AND NOT is_deleted',
        [owner],
      );
      expect(page.every((n) => owned.rows.some((r) => r.id === n.id) && !n.isDeleted)).toBe(true);
    });
  });

  describe(NoteCounts1795800000000.name, () => {
    const counted = async () =>
      (
        await db.pg.query<{ owner_id: string; notes: number; deleted_notes: number }>(
          `SELECT owner_id, notes::int, deleted_notes::int FROM notes.note_counts ORDER BY owner_id`,
        )
      ).rows;
    const actual = async () =>
      (
        await db.pg.query<{ owner_id: string; notes: number; deleted_notes: number }>(
          `SELECT owner_id, count(*) FILTER (WHERE NOT is_deleted)::int AS notes,
                  count(*) FILTER (WHERE is_deleted)::int AS deleted_notes
           FROM notes.notes GROUP BY owner_id ORDER BY owner_id`,
        )
      ).rows;

    it('drops its table and triggers on down, and counts the notes already there when it comes up', async () => {
      await revertLastMigration(cfg());
      expect(await tables()).toEqual(['notes', 'notes_migrations']);
      const triggers = await db.pg.query(`SELECT 1 FROM pg_trigger WHERE tgname LIKE 'note_counts%'`);
      expect(triggers.rowCount).toBe(0);

      expect(await runMigrations(cfg())).toEqual(['NoteCounts1795800000000']);
      const rows = await counted();
      expect(rows.length).toBeGreaterThan(60);
      expect(rows).toEqual(await actual());
    });

    it('keeps every owner’s counts through inserts, trash, restore, edits and deletes', async () => {
      const owner = randomUUID();
      await db.pg.query(
        `INSERT INTO notes.notes (id, owner_id, title, content, wrapped_dek, body_hash)
         SELECT gen_random_uuid(), $1, 'a:b', 'a:b', 'k:i', 'h' FROM generate_series(1, 5)`,
        [owner],
      );
      const mine = async () => (await counted()).find((r) => r.owner_id === owner);
      expect(await mine()).toEqual({ owner_id: owner, notes: 5, deleted_notes: 0 });
      await db.pg.query(
        `UPDATE notes.notes SET is_deleted = true, deleted_at = now()
         WHERE id IN (SELECT id FROM notes.notes WHERE owner_id = $1 LIMIT 3)`,
        [owner],
      );
      // A trashed note trashed again, and an edit of every note, move nothing.
      await db.pg.query(`UPDATE notes.notes SET deleted_at = now() WHERE owner_id = $1 AND is_deleted`, [
        owner,
      ]);
      await db.pg.query(`UPDATE notes.notes SET title = 'c:d' WHERE owner_id = $1`, [owner]);
      expect(await mine()).toEqual({ owner_id: owner, notes: 2, deleted_notes: 3 });
      await db.pg.query(
        `UPDATE notes.notes SET is_deleted = false, deleted_at = null
         WHERE id IN (SELECT id FROM notes.notes WHERE owner_id = $1 AND is_deleted LIMIT 1)`,
        [owner],
      );
      await db.pg.query(`DELETE FROM notes.notes WHERE owner_id = $1 AND is_deleted`, [owner]);
      expect(await mine()).toEqual({ owner_id: owner, notes: 3, deleted_notes: 0 });
      await db.pg.query(`DELETE FROM notes.notes WHERE owner_id = $1`, [owner]);
      expect(await mine()).toBeUndefined();
      expect(await counted()).toEqual(await actual());
    });
  });

  it('takes stored_order away on down, giving the list its index on (updated_at, id) back', async () => {
    await revertLastMigration(cfg());
    await revertLastMigration(cfg());
    const cols = await db.pg.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'notes' AND table_name = 'notes'`,
    );
    expect(cols.rows.map((c) => c.column_name)).not.toContain('stored_order');
    const idx = await db.pg.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = 'notes' AND indexname = 'notes_owner_list_idx'`,
    );
    expect(idx.rows[0]?.indexdef).toContain('(owner_id, is_deleted, updated_at DESC, id DESC)');
  });

  it('gives the notes already there stored_order 0 when it comes up again (their order stays by id)', async () => {
    const before = await db.pg.query<{ n: number }>('SELECT count(*)::int AS n FROM notes.notes');
    expect(await runMigrations(cfg())).toEqual(['NoteListOrder1795600000000', 'NoteCounts1795800000000']);
    const res = await db.pg.query<{ n: number; zero: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE stored_order = 0)::int AS zero FROM notes.notes`,
    );
    expect(res.rows[0]).toEqual({ n: before.rows[0]!.n, zero: before.rows[0]!.n });
  });

  it('removes the tables again on down, keeping the schema and its ledger', async () => {
    await revertLastMigration(cfg());
    await revertLastMigration(cfg());
    await revertLastMigration(cfg());
    expect(await tables()).toEqual(['notes_migrations']);
  });

  it('comes back up after a down', async () => {
    expect(await runMigrations(cfg())).toEqual([
      'CreateNotesSchema1795400000000',
      'NoteListOrder1795600000000',
      'NoteCounts1795800000000',
    ]);
    expect(await tables()).toEqual(['note_counts', 'notes', 'notes_migrations']);
  });
});
