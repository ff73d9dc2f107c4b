import { Injectable } from '@nestjs/common';
import { DataSource, In, type Repository, type SelectQueryBuilder } from 'typeorm';
import type { NoteDto } from '@vault/contracts';
import { NoteEntity } from '../entities/note.entity';

/** The sealed fields a client sends (create and update). */
export interface SealedNoteFields {
  title: string;
  content: string;
  tags: string[];
  wrappedDek: string;
}

export interface NewNote extends SealedNoteFields {
  id: string;
  ownerId: string;
  bodyHash: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A place in the vault list's order (updated_at desc, stored_order asc, id desc): list what comes after it. */
export interface ListPosition {
  updatedAt: Date;
  storedOrder: string;
  id: string;
}

/** A note of the vault list as listActive reads it: its answer, and its place for a cursor. */
export interface ListedNote extends NoteDto {
  storedOrder: string;
}

/**
 * A timestamptz as NoteDto's ISO string, written by Postgres: UTC, milliseconds cut (not rounded)
 * and `Z`, exactly what `Date.toISOString()` made of the same value.
 */
function isoText(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A row as `RETURNING *` gives it (column names, not properties). */
interface NoteRow {
  id: string;
  owner_id: string;
  title: string;
  content: string;
  tags: string[];
  wrapped_dek: string;
  is_encrypted: boolean;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  stored_order: string;
  body_hash: string;
}

function fromRow(row: NoteRow): NoteEntity {
  return Object.assign(new NoteEntity(), {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    content: row.content,
    tags: row.tags,
    wrappedDek: row.wrapped_dek,
    isEncrypted: row.is_encrypted,
    isDeleted: row.is_deleted,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    storedOrder: row.stored_order,
    bodyHash: row.body_hash,
  });
}

const firstRow = (raw: unknown): NoteEntity | null => {
  const rows = raw as NoteRow[] | undefined;
  return rows?.[0] ? fromRow(rows[0]) : null;
};

/**
 * One `INSERT ... VALUES (...), (...) ON CONFLICT DO NOTHING RETURNING *` for all the notes:
 * the rows it inserted (an id that exists, whoever owns it, is left alone). Rows go in id order,
 * so two transactions inserting overlapping ids take their locks in the same order and wait for
 * each other instead of deadlocking. `stored_order` is the transaction's start in microseconds
 * plus the note's place in `rows`, so notes of the same `updated_at` list in the order given
 * (and after the notes of earlier transactions).
 */
async function insertAllIfAbsent(
  notes: Repository<NoteEntity>,
  rows: readonly NewNote[],
): Promise<NoteEntity[]> {
  if (rows.length === 0) return [];
  const values = rows
    .map((note, place) => ({ note, place }))
    .sort((a, b) => (a.note.id < b.note.id ? -1 : a.note.id > b.note.id ? 1 : 0))
    .map(({ note, place }) => ({
      id: note.id,
      ownerId: note.ownerId,
      title: note.title,
      content: note.content,
      tags: note.tags,
      wrappedDek: note.wrappedDek,
      isEncrypted: true,
      isDeleted: false,
      createdAt: note.createdAt,
      updatedAt: note.updatedAt,
      deletedAt: null,
      // Raw SQL of this module's own making (an integer), never input.
      storedOrder: () => `(extract(epoch FROM now()) * 1000000)::bigint + ${place}`,
      bodyHash: note.bodyHash,
    }));
  const result = await notes
    .createQueryBuilder()
    .insert()
    .into(NoteEntity)
    .values(values)
    .orIgnore()
    .returning('*')
    .execute();
  return ((result.raw as NoteRow[] | undefined) ?? []).map(fromRow);
}

/** The queries of a batch create, bound to one transaction (NotesRepository.transaction). */
export class NotesTransaction {
  constructor(private readonly notes: Repository<NoteEntity>) {}

  /** Inserts every note whose id does not exist yet (whoever owns it), in one statement: the new rows. */
  insertAllIfAbsent(rows: readonly NewNote[]): Promise<NoteEntity[]> {
    return insertAllIfAbsent(this.notes, rows);
  }

  /** Any owner's notes with these ids: only to tell idempotent retries from id clashes. */
  findByIds(ids: readonly string[]): Promise<NoteEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.notes.findBy({ id: In([...ids]) });
  }
}

/**
 * Queries on `notes.notes`. Every query that reads or changes a user's notes is scoped by
 * `owner_id`; no product rules here (the service decides what a missing row means).
 */
@Injectable()
export class NotesRepository {
  private readonly notes: Repository<NoteEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.notes = dataSource.getRepository(NoteEntity);
  }

  /**
   * Runs `work` in one transaction: what it does through the NotesTransaction it is given
   * commits together when it resolves, and not at all when it throws.
   */
  transaction<T>(work: (tx: NotesTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) =>
      work(new NotesTransaction(manager.getRepository(NoteEntity))),
    );
  }

  /** Inserts unless a note with this id exists (whoever owns it): the new row, or null. */
  async insertIfAbsent(note: NewNote): Promise<NoteEntity | null> {
    const [inserted] = await insertAllIfAbsent(this.notes, [note]);
    return inserted ?? null;
  }

  /** Any owner's note: only to tell an idempotent retry from an id clash. */
  findById(id: string): Promise<NoteEntity | null> {
    return this.notes.findOneBy({ id });
  }

  findOwned(ownerId: string, id: string): Promise<NoteEntity | null> {
    return this.notes.findOneBy({ id, ownerId });
  }

  /**
   * The vault list: the owner's active notes, newest `updated_at` first; notes of the same
   * `updated_at` in the order they were stored (`stored_order`), then by id descending (served by
   * `notes_owner_list_idx`, no sort). Each row comes back shaped as its answer (NoteDto, the dates
   * already the answer's ISO strings) plus its `storedOrder` for a cursor: no entity and no Date
   * per row, the list's main cost before (bench/README.md "Load"). The SQL and its parameters, so
   * a test can EXPLAIN it.
   */
  listQuery(ownerId: string, opts: { after?: ListPosition; limit?: number } = {}): [string, unknown[]] {
    const params: unknown[] = [ownerId];
    let after = '';
    if (opts.after) {
      // The directions differ, so no row comparison: `updated_at <=` bounds the index scan, and
      // the rest places the row among the notes of that same `updated_at`.
      params.push(opts.after.updatedAt.toISOString(), opts.after.storedOrder, opts.after.id);
      after = `AND n.updated_at <= $2::timestamptz AND (n.updated_at < $2::timestamptz
        OR n.stored_order > $3::bigint OR (n.stored_order = $3::bigint AND n.id < $4::uuid))`;
    }
    let limit = '';
    if (opts.limit !== undefined) {
      params.push(opts.limit);
      limit = `LIMIT $${params.length}::int`;
    }
    const sql = `
      SELECT n.id, n.title, n.content, n.tags, n.wrapped_dek AS "wrappedDEK", n.is_encrypted AS "isEncrypted",
        n.is_deleted AS "isDeleted", ${isoText('n.created_at')} AS "createdAt",
        ${isoText('n.updated_at')} AS "updatedAt", ${isoText('n.deleted_at')} AS "deletedAt",
        n.stored_order::text AS "storedOrder"
      FROM notes.notes n
      WHERE n.owner_id = $1::uuid AND n.is_deleted = false ${after}
      ORDER BY n.updated_at DESC, n.stored_order ASC, n.id DESC
      ${limit}`;
    return [sql, params];
  }

  listActive(ownerId: string, opts: { after?: ListPosition; limit?: number } = {}): Promise<ListedNote[]> {
    const [sql, params] = this.listQuery(ownerId, opts);
    return this.notes.query(sql, params) as Promise<ListedNote[]>;
  }

  /** The owner's trash, most recently deleted first (served by `notes_owner_trash_idx`). */
  trashQuery(ownerId: string): SelectQueryBuilder<NoteEntity> {
    return this.notes
      .createQueryBuilder('n')
      .where('n.owner_id = :ownerId', { ownerId })
      .andWhere('n.is_deleted = true')
      .orderBy('n.deletedAt', 'DESC')
      .addOrderBy('n.id', 'DESC');
  }

  listDeleted(ownerId: string): Promise<NoteEntity[]> {
    return this.trashQuery(ownerId).getMany();
  }

  /** Replaces the sealed fields of an active note: the updated row, or null (none such). */
  async updateActive(
    ownerId: string,
    id: string,
    fields: SealedNoteFields,
    at: Date,
  ): Promise<NoteEntity | null> {
    const result = await this.notes
      .createQueryBuilder()
      .update(NoteEntity)
      .set({ ...fields, updatedAt: at })
      .where('id = :id AND owner_id = :ownerId AND is_deleted = false', { id, ownerId })
      .returning('*')
      .execute();
    return firstRow(result.raw);
  }

  /** Replaces the wrapped key of a note, active or trashed; false when the owner has no such note. */
  async setWrappedDek(ownerId: string, id: string, wrappedDek: string): Promise<boolean> {
    const result = await this.notes
      .createQueryBuilder()
      .update(NoteEntity)
      .set({ wrappedDek })
      .where('id = :id AND owner_id = :ownerId', { id, ownerId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Moves an active note to the trash; false when there is no such active note. */
  async softDelete(ownerId: string, id: string, at: Date): Promise<boolean> {
    const result = await this.notes
      .createQueryBuilder()
      .update(NoteEntity)
      .set({ isDeleted: true, deletedAt: at })
      .where('id = :id AND owner_id = :ownerId AND is_deleted = false', { id, ownerId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Takes a note out of the trash: the restored row, or null (no such note in the trash). */
  async restore(ownerId: string, id: string): Promise<NoteEntity | null> {
    const result = await this.notes
      .createQueryBuilder()
      .update(NoteEntity)
      .set({ isDeleted: false, deletedAt: null })
      .where('id = :id AND owner_id = :ownerId AND is_deleted = true', { id, ownerId })
      .returning('*')
      .execute();
    return firstRow(result.raw);
  }

  /** Deletes one note of the trash for good; false when there is no such note in the trash. */
  async purge(ownerId: string, id: string): Promise<boolean> {
    return (
      (await this.deleteWhere('id = :id AND owner_id = :ownerId AND is_deleted = true', { id, ownerId })) > 0
    );
  }

  /** Deletes every note of the owner's trash for good; how many. */
  purgeAllDeleted(ownerId: string): Promise<number> {
    return this.deleteWhere('owner_id = :ownerId AND is_deleted = true', { ownerId });
  }

  /** Account deletion: every note of the user, active or in the trash; 0 on a replay (idempotent). */
  deleteAllOwned(ownerId: string): Promise<number> {
    return this.deleteWhere('owner_id = :ownerId', { ownerId });
  }

  private async deleteWhere(where: string, params: Record<string, string>): Promise<number> {
    const result = await this.notes
      .createQueryBuilder()
      .delete()
      .from(NoteEntity)
      .where(where, params)
      .execute();
    return result.affected ?? 0;
  }

  async counts(ownerId: string): Promise<{ active: number; deleted: number }> {
    const row = await this.notes
      .createQueryBuilder('n')
      .select('count(*) FILTER (WHERE NOT n.is_deleted)::int', 'active')
      .addSelect('count(*) FILTER (WHERE n.is_deleted)::int', 'deleted')
      .where('n.owner_id = :ownerId', { ownerId })
      .getRawOne<{ active: number; deleted: number }>();
    return { active: row?.active ?? 0, deleted: row?.deleted ?? 0 };
  }
}
