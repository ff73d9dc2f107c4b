import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  createNoteBatchBodySchema,
  createNoteBodySchema,
  listNotesQuerySchema,
  noteIdParamSchema,
  rewrapNoteKeyBodySchema,
  updateNoteBodySchema,
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
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { listAllNotes } from './list-all-notes';
import { noteBatchSizePipe, noteSizePipe } from './note-size.pipe';

/**
 * /api/notes (docs/api.md "Notes"; additions to the original contract: `GET /api/notes/counts`,
 * `DELETE /api/notes/trash`, `POST /api/notes/batch` and `PUT /api/notes/{id}/key`). Protected by
 * the global JWT guard; each handler only translates: validated body, params and query plus the
 * caller's context in, the service's answer out.
 */
@Controller('notes')
export class NotesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(listNotesQuerySchema)) query: ListNotesQuery,
  ): Promise<NoteListResponse> {
    return query.limit === undefined
      ? listAllNotes(this.rpc, ctx, query.cursor)
      : this.rpc.call('notes.list', ctx, query);
  }

  @Get('deleted')
  listDeleted(@Ctx() ctx: RpcContext): Promise<DeletedNoteListResponse> {
    return this.rpc.call('notes.list-deleted', ctx, undefined);
  }

  @Get('counts')
  counts(@Ctx() ctx: RpcContext): Promise<NoteCountsResponse> {
    return this.rpc.call('notes.counts', ctx, undefined);
  }

  @Post()
  @HttpCode(201)
  create(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(createNoteBodySchema), noteSizePipe()) body: CreateNoteBody,
  ): Promise<NoteResponse> {
    return this.rpc.call('notes.create', ctx, body);
  }

  /** Bulk create (imports): 1..100 notes, one transaction, idempotent per note like create. */
  @Post('batch')
  @HttpCode(201)
  createBatch(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(createNoteBatchBodySchema), noteBatchSizePipe()) body: CreateNoteBatchBody,
  ): Promise<CreateNoteBatchResponse> {
    return this.rpc.call('notes.create-batch', ctx, body);
  }

  @Put(':id')
  update(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
    @Body(zodPipe(updateNoteBodySchema), noteSizePipe()) body: UpdateNoteBody,
  ): Promise<NoteResponse> {
    return this.rpc.call('notes.update', ctx, { id: params.id, ...body });
  }

  /** Legacy-key re-wrap: only wrappedDEK changes, in the trash too; updatedAt stays. */
  @Put(':id/key')
  @HttpCode(204)
  async rewrapKey(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
    @Body(zodPipe(rewrapNoteKeyBodySchema)) body: RewrapNoteKeyBody,
  ): Promise<void> {
    await this.rpc.call('notes.rewrap-key', ctx, { id: params.id, ...body });
  }

  @Delete('trash')
  @HttpCode(200)
  emptyTrash(@Ctx() ctx: RpcContext): Promise<EmptyTrashResponse> {
    return this.rpc.call('notes.empty-trash', ctx, undefined);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
  ): Promise<void> {
    await this.rpc.call('notes.delete', ctx, params);
  }

  @Post(':id/restore')
  @HttpCode(200)
  restore(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam,
  ): Promise<NoteResponse> {
    return this.rpc.call('notes.restore', ctx, params);
  }

  @Delete(':id/permanent')
  @HttpCode(204)
  async purge(@Ctx() ctx: RpcContext, @Param(zodPipe(noteIdParamSchema)) params: NoteIdParam): Promise<void> {
    await this.rpc.call('notes.delete-permanent', ctx, params);
  }
}
