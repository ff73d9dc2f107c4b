import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  NOTE_MESSAGES,
  VaultError,
  type CreateNoteBatchBody,
  type CreateNoteBatchResponse,
  type CreateNoteBody,
  type NoteBatchConflictExtra,
  type DeletedNoteListResponse,
  type EmptyTrashResponse,
  type ListNotesQuery,
  type NoteCountsResponse,
  type NoteDto,
  type NoteListPage,
  type NoteResponse,
  RawJson,
  type RewrapNoteKeyRequest,
  type RpcAuth,
  type RpcReply,
  type UpdateNoteRequest,
} from '@vault/contracts';
import type { NoteEntity } from '../entities/note.entity';
import { toNoteDto } from '../mappers/note.mapper';
import { NoteCountsRepository } from '../repositories/note-counts.repository';
import {
  NotesRepository,
  type ListedNote,
  type ListPosition,
  type NewNote,
} from '../repositories/notes.repository';
import { takePage } from './list-page';
import {
  assertBatchSize,
  assertNoteSize,
  isSameCreateRequest,
  noteBodyHash,
  sealedFields,
} from './note-body';
import { decodeCursor, encodeCursor } from './note-cursor';

const notFound = () => new VaultError(ErrorCode.NOT_FOUND, NOTE_MESSAGES.notFound);

/**
 * The rules of encrypted notes and their trash. Every call acts on the caller's own notes
 * only: another user's note answers exactly like one that does not exist (404).
 */
@Injectable()
export class NotesService {
  private readonly logger = new Logger(NotesService.name);

  constructor(
    private readonly notes: NotesRepository,
    private readonly totals: NoteCountsRepository,
  ) {}

  /**
   * Active notes, newest `updatedAt` first; notes of the same `updatedAt` in the order they were
   * stored (a batch: the order of its request), then by id (descending). Without `limit`: all of
   * them (after `cursor`, if one is given) and `nextCursor: null`. With `limit`: one page of at
   * most `limit` notes and at most LIST_PAGE_MAX_BYTES of ciphertext, and the cursor of the
   * next page (null on the last one). The notes go as their JSON text, which the gateway passes
   * on unparsed (RawJson).
   */
  async list(auth: RpcAuth, query: ListNotesQuery): Promise<NoteListPage> {
    let after: ListPosition | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) throw new VaultError(ErrorCode.VALIDATION_FAILED, NOTE_MESSAGES.invalidCursor);
    }
    if (query.limit === undefined) {
      const rows = await this.notes.listActive(auth.userId, { after });
      return { notes: listedJson(rows), nextCursor: null };
    }
    const rows = await this.notes.listActive(auth.userId, { after, limit: query.limit + 1 });
    const { page, hasMore } = takePage(rows, query.limit);
    const last = page[page.length - 1];
    return {
      notes: listedJson(page),
      nextCursor:
        hasMore && last
          ? encodeCursor({ updatedAt: new Date(last.updatedAt), storedOrder: last.storedOrder, id: last.id })
          : null,
    };
  }

  /** The trash: deleted notes, most recently deleted first. */
  async listDeleted(auth: RpcAuth): Promise<DeletedNoteListResponse> {
    return { notes: (await this.notes.listDeleted(auth.userId)).map(toNoteDto) };
  }

  /**
   * Stores a note under its client-made id. Idempotent: the same id with the same body
   * again changes nothing and answers the note as it is now. The same id with another body,
   * or an id another user already holds, answers 409.
   */
  async create(auth: RpcAuth, body: CreateNoteBody): Promise<NoteResponse> {
    assertNoteSize(body);
    const bodyHash = noteBodyHash(body);
    const at = now();
    const inserted = await this.notes.insertIfAbsent({
      id: body.id,
      ownerId: auth.userId,
      ...sealedFields(body),
      bodyHash,
      createdAt: at,
      updatedAt: at,
    });
    if (inserted) {
      this.logger.debug(`Note ${inserted.id} created by user ${auth.userId}`);
      return { note: toNoteDto(inserted) };
    }
    const existing = await this.notes.findById(body.id);
    if (existing && existing.ownerId === auth.userId && isSameCreateRequest(existing.bodyHash, body)) {
      return { note: toNoteDto(existing) };
    }
    // A clash, or a row purged between the insert and the read: either way not this request's note.
    throw new VaultError(ErrorCode.CONFLICT, NOTE_MESSAGES.idTaken);
  }

  /**
   * Creates up to NOTE_BATCH_MAX_NOTES notes (distinct ids, checked by the contract schema) in
   * one transaction with one INSERT, answering them in the order of the request. Each note is
   * idempotent exactly as `create` is: an id this user already holds with the same body is
   * answered as it is now, changing nothing. Any id that is taken (another body, or another
   * user's) answers 409 with the taken ids in `extra.ids`, and then nothing of the batch is
   * stored.
   *
   * A note with `createdAt` and `updatedAt` (an import; bounds checked by the contract schema)
   * keeps them, to the millisecond; the others share the time of the request. Notes of the same
   * `updatedAt` are listed in the order of the request (`stored_order`), after those of earlier
   * requests: an import that sends its batches one after another in its file's order gets its
   * file's order back, whatever the ids.
   */
  async createBatch(auth: RpcAuth, body: CreateNoteBatchBody): Promise<CreateNoteBatchResponse> {
    assertBatchSize(body.notes);
    const at = now();
    const rows: NewNote[] = body.notes.map((note) => ({
      id: note.id,
      ownerId: auth.userId,
      ...sealedFields(note),
      bodyHash: noteBodyHash(note),
      createdAt: note.createdAt === undefined ? at : new Date(note.createdAt),
      updatedAt: note.updatedAt === undefined ? at : new Date(note.updatedAt),
    }));
    const { notes, created } = await this.notes.transaction(async (tx) => {
      const saved = new Map((await tx.insertAllIfAbsent(rows)).map((n) => [n.id, n]));
      const created = saved.size;
      const rest = rows.filter((row) => !saved.has(row.id));
      const existing = new Map((await tx.findByIds(rest.map((r) => r.id))).map((n) => [n.id, n]));
      const taken: string[] = [];
      for (const row of rest) {
        const note = existing.get(row.id);
        // As in create: a clash, or a row purged between the insert and the read.
        if (note && note.ownerId === auth.userId && note.bodyHash === row.bodyHash) saved.set(row.id, note);
        else taken.push(row.id);
      }
      if (taken.length > 0) {
        const extra: NoteBatchConflictExtra = { ids: taken };
        throw new VaultError(ErrorCode.CONFLICT, NOTE_MESSAGES.idTaken, { ...extra });
      }
      return { notes: rows.map((row) => saved.get(row.id)!), created };
    });
    this.logger.debug(
      `Batch of ${rows.length} note(s) by user ${auth.userId}: ${created} created, ${rows.length - created} already there`,
    );
    return { notes: notes.map(toNoteDto) };
  }

  /** Replaces the sealed fields of an active note. A note in the trash must be restored first (404). */
  async update(auth: RpcAuth, body: UpdateNoteRequest): Promise<NoteResponse> {
    assertNoteSize(body);
    const updated = await this.notes.updateActive(auth.userId, body.id, sealedFields(body), now());
    if (!updated) throw notFound();
    return { note: toNoteDto(updated) };
  }

  /**
   * Replaces only the note's wrapped key (the legacy-key re-wrap after an access reset), in the
   * trash or not. `updatedAt` stays: the user changed nothing they can see, and the list keeps
   * its order (a re-wrap of hundreds of notes would otherwise reshuffle it). Idempotent.
   */
  async rewrapKey(auth: RpcAuth, body: RewrapNoteKeyRequest): Promise<void> {
    if (!(await this.notes.setWrappedDek(auth.userId, body.id, body.wrappedDEK))) throw notFound();
    this.logger.debug(`Note ${body.id} key re-wrapped by user ${auth.userId}`);
  }

  /** Soft delete: into the trash. Deleting a note already in the trash changes nothing. */
  async remove(auth: RpcAuth, id: string): Promise<void> {
    if (await this.notes.softDelete(auth.userId, id, now())) return;
    if (!(await this.notes.findOwned(auth.userId, id))) throw notFound();
  }

  /** Out of the trash. Restoring a note that is not in the trash answers it unchanged. */
  async restore(auth: RpcAuth, id: string): Promise<NoteResponse> {
    const note: NoteEntity | null =
      (await this.notes.restore(auth.userId, id)) ?? (await this.notes.findOwned(auth.userId, id));
    if (!note) throw notFound();
    return { note: toNoteDto(note) };
  }

  /** Permanent delete, from the trash only: an active note (or none) answers 404. */
  async purge(auth: RpcAuth, id: string): Promise<void> {
    if (!(await this.notes.purge(auth.userId, id))) throw notFound();
  }

  /** Permanently deletes every note in the caller's trash. */
  async emptyTrash(auth: RpcAuth): Promise<EmptyTrashResponse> {
    const deleted = await this.notes.purgeAllDeleted(auth.userId);
    this.logger.log(`Trash emptied: user ${auth.userId}, ${deleted} note(s) deleted`);
    return { deleted };
  }

  counts(auth: RpcAuth): Promise<NoteCountsResponse> {
    return this.notes.counts(auth.userId);
  }

  /**
   * The admin console's counts (numbers only): one owner's, counted from the notes themselves so
   * they are exact, or everyone's from the per-owner counters.
   */
  async ownerCounts(ownerId: string | undefined): Promise<RpcReply<'notes.admin.counts'>> {
    const { active, deleted } = ownerId ? await this.notes.counts(ownerId) : await this.totals.everyone();
    return { notes: active, deletedNotes: deleted };
  }
}

/** A listed row as its answer: the same fields in the same order as toNoteDto, without storedOrder. */
function toListedDto(row: ListedNote): NoteDto {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    tags: row.tags,
    wrappedDEK: row.wrappedDEK,
    isEncrypted: row.isEncrypted,
    isDeleted: row.isDeleted,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
  };
}

function listedJson(rows: ListedNote[]): RawJson<NoteDto[]> {
  return new RawJson(JSON.stringify(rows.map(toListedDto)));
}

/** Millisecond precision, like the ISO strings in answers and the list cursor. */
function now(): Date {
  return new Date();
}
