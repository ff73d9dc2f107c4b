import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  createNoteBatchBodySchema,
  createNoteBatchResponseSchema,
  createNoteBodySchema,
  deletedNoteListResponseSchema,
  emptyTrashResponseSchema,
  ErrorCode as E,
  listNotesQuerySchema,
  NOTE_BATCH_MAX_BYTES,
  NOTE_BATCH_MAX_NOTES,
  NOTE_DATE_MAX_SKEW_MS,
  NOTE_DATE_MIN,
  NOTE_MAX_BYTES,
  noteCountsResponseSchema,
  noteIdParamSchema,
  noteListResponseSchema,
  noteResponseSchema,
  rewrapNoteKeyBodySchema,
  updateNoteBodySchema,
  type RawJson,
  type CreateNoteBatchBody,
  type CreateNoteBatchResponse,
  type CreateNoteBody,
  type DeletedNoteListResponse,
  type EmptyTrashResponse,
  type ListNotesQuery,
  type NoteCountsResponse,
  type NoteIdParam,
  type NoteListResponse,
  type NoteResponse,
  type RewrapNoteKeyBody,
  type RpcContext,
  type UpdateNoteBody,
} from '@vault/contracts';
import { Route } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { listAllNotes, pageBody } from './list-all-notes';
import { noteBatchSizePipe, noteSizePipe } from './note-size.pipe';

const ADDITION = 'An addition to the original contract (docs/api.md)';

/**
 * /api/notes (docs/api.md "Notes"; additions to the original contract: `GET /api/notes/counts`,
 * `DELETE /api/notes/trash`, `POST /api/notes/batch` and `PUT /api/notes/{id}/key`). Protected by
 * the global JWT guard; each handler only translates: validated body, params and query plus the
 * caller's context in, the service's answer out.
 */
@Controller('notes')
export class NotesController {
  constructor(private readonly rpc: RpcClient) {}

  @Route('get', undefined, {
    summary:
      'Active notes, newest updatedAt first (ties: in the order they were stored, then by id). Without ' +
      'limit: all of them. With limit: one page ' +
      'of at most `limit` notes (a page may hold fewer: it carries at most about 768 KiB of ciphertext) and ' +
      '`nextCursor` for the next page, null on the last one',
    success: [{ description: 'Notes (sealed)', schema: noteListResponseSchema }],
  })
  listNotes(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(listNotesQuerySchema)) query: ListNotesQuery,
  ): Promise<RawJson<NoteListResponse>> {
    return query.limit === undefined
      ? listAllNotes(this.rpc, ctx, query.cursor)
      : this.rpc.call('notes.list', ctx, query).then(pageBody);
  }

  @Route('get', 'deleted', {
    summary: 'The trash: deleted notes, most recently deleted first',
    success: [{ description: 'Deleted notes (sealed)', schema: deletedNoteListResponseSchema }],
  })
  listDeletedNotes(@Ctx() ctx: RpcContext): Promise<DeletedNoteListResponse> {
    return this.rpc.call('notes.list-deleted', ctx, undefined);
  }

  @Route('get', 'counts', {
    summary: `How many notes are active and how many in the trash (sidebar). ${ADDITION}`,
    success: [{ description: 'Counts', schema: noteCountsResponseSchema }],
  })
  countNotes(@Ctx() ctx: RpcContext): Promise<NoteCountsResponse> {
    return this.rpc.call('notes.counts', ctx, undefined);
  }

  @Route('post', undefined, {
    status: 201,
    summary:
      `Store a note sealed on the client under its client-made id (at most ${NOTE_MAX_BYTES} bytes of ` +
      'sealed fields). Repeating the same request (same id, same body) changes nothing and answers the note',
    success: [{ description: 'Created (or the same request again)', schema: noteResponseSchema }],
    errors: [E.CONFLICT],
  })
  createNote(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(createNoteBodySchema), noteSizePipe()) body: CreateNoteBody,
  ): Promise<NoteResponse> {
    return this.rpc.call('notes.create', ctx, body);
  }

  /** Bulk create (imports): 1..100 notes, one transaction, idempotent per note like create. */
  @Route('post', 'batch', {
    status: 201,
    summary:
      `Store 1 to ${NOTE_BATCH_MAX_NOTES} notes sealed on the client in one request and one transaction ` +
      '(imports). Each note is checked exactly as POST /api/notes checks it, ids must be distinct within ' +
      `the batch, and the notes together may hold at most ${NOTE_BATCH_MAX_BYTES} bytes of sealed fields ` +
      '(413 otherwise; a note over the single-note limit answers that 413 first). Idempotent per note: an ' +
      'id the caller already holds with the same body is answered as it is now. Any id that is taken (a ' +
      'different body, or another user’s) answers 409 with the taken ids in `ids`, and nothing of the ' +
      'batch is stored. A note may bring the `createdAt` and `updatedAt` of the backup it comes from ' +
      `(both or neither; from ${NOTE_DATE_MIN} to ${NOTE_DATE_MAX_SKEW_MS / 60_000} minutes ahead of the ` +
      'server’s clock; createdAt not after updatedAt; 400 naming the note otherwise): they are kept to ' +
      'the millisecond, the others get the time of the request. Notes with the same updatedAt are listed ' +
      'in the order they were stored: a batch in its order, after earlier batches, so an import that ' +
      `sends its batches one after another keeps its file’s order. ${ADDITION}`,
    success: [
      {
        description: 'Every note of the batch, in the order sent (created, or already there)',
        schema: createNoteBatchResponseSchema,
      },
    ],
    errors: [E.CONFLICT],
  })
  createNotesBatch(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(createNoteBatchBodySchema), noteBatchSizePipe()) body: CreateNoteBatchBody,
  ): Promise<CreateNoteBatchResponse> {
    return this.rpc.call('notes.create-batch', ctx, body);
  }

  @Route('put', ':id', {
    summary:
      'Replace the sealed fields of an active note (a note in the trash answers 404: restore it first)',
    success: [{ description: 'Updated', schema: noteResponseSchema }],
  })
  updateNote(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
    @Body(zodPipe(updateNoteBodySchema), noteSizePipe()) body: UpdateNoteBody,
  ): Promise<NoteResponse> {
    return this.rpc.call('notes.update', ctx, { id: params.id, ...body });
  }

  /** Legacy-key re-wrap: only wrappedDEK changes, in the trash too; updatedAt stays. */
  @Route('put', ':id/key', {
    status: 204,
    summary:
      'Replace only the wrapped key of a note, active or in the trash (the re-wrap under the current vault ' +
      `key after an access reset). updatedAt and every sealed field stay. ${ADDITION}`,
    success: [{ description: 'Re-wrapped' }],
  })
  async rewrapNoteKey(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
    @Body(zodPipe(rewrapNoteKeyBodySchema)) body: RewrapNoteKeyBody,
  ): Promise<void> {
    await this.rpc.call('notes.rewrap-key', ctx, { id: params.id, ...body });
  }

  @Route('delete', 'trash', {
    status: 200,
    summary: `Permanently delete every note in the trash ("Empty Trash"). ${ADDITION}`,
    success: [{ description: 'How many notes were deleted', schema: emptyTrashResponseSchema }],
  })
  emptyTrash(@Ctx() ctx: RpcContext): Promise<EmptyTrashResponse> {
    return this.rpc.call('notes.empty-trash', ctx, undefined);
  }

  @Route('delete', ':id', {
    status: 204,
    summary: 'Soft delete: move the note to the trash (a note already there stays as it is)',
    success: [{ description: 'In the trash' }],
  })
  async deleteNote(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
  ): Promise<void> {
    await this.rpc.call('notes.delete', ctx, params);
  }

  @Route('post', ':id/restore', {
    status: 200,
    summary: 'Take a note out of the trash (an active note is answered as it is)',
    success: [{ description: 'Restored', schema: noteResponseSchema }],
  })
  restoreNote(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
  ): Promise<NoteResponse> {
    return this.rpc.call('notes.restore', ctx, params);
  }

  @Route('delete', ':id/permanent', {
    status: 204,
    summary: 'Permanently delete a note of the trash (an active note answers 404: delete it first)',
    success: [{ description: 'Deleted for good' }],
  })
  async purgeNote(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
  ): Promise<void> {
    await this.rpc.call('notes.delete-permanent', ctx, params);
  }
}
