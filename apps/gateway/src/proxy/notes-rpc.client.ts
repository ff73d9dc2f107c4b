import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  NOTES_PATTERNS,
  type CreateNoteBatchBody,
  type CreateNoteBatchResponse,
  type CreateNoteBody,
  type DeletedNoteListResponse,
  type EmptyTrashResponse,
  type HealthReply,
  type ListNotesQuery,
  type NoteCountsResponse,
  type NoteDto,
  type NoteIdParam,
  type NoteListResponse,
  type NoteResponse,
  type RewrapNoteKeyRequest,
  type RpcContext,
  type UpdateNoteRequest,
} from '@vault/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { RpcServiceClient } from './rpc-service.client';

export const NOTES_RPC = Symbol('NOTES_RPC');

/** Page size the gateway asks for when a client wants the whole list (the largest the contract allows). */
export const LIST_ALL_PAGE_SIZE = 500;

/** The notes service's message patterns, typed (see RpcServiceClient). */
@Injectable()
export class NotesRpcClient extends RpcServiceClient {
  constructor(@Inject(NOTES_RPC) client: ClientProxy, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super(client, config);
  }

  list(ctx: RpcContext, query: ListNotesQuery): Promise<NoteListResponse> {
    return this.call(NOTES_PATTERNS.list, ctx, query);
  }

  /**
   * Every active note (`GET /api/notes` without `limit`), fetched page by page so that no
   * single RPC message grows with the vault (NATS caps a message at max_payload); the
   * service also caps each page's bytes. Pages follow the service's keyset cursor.
   */
  async listAll(ctx: RpcContext, cursor?: string): Promise<NoteListResponse> {
    const notes: NoteDto[] = [];
    let next: string | undefined = cursor;
    for (;;) {
      const query: ListNotesQuery =
        next === undefined ? { limit: LIST_ALL_PAGE_SIZE } : { limit: LIST_ALL_PAGE_SIZE, cursor: next };
      const page = await this.list(ctx, query);
      notes.push(...page.notes);
      // A page that ends the list, or (defensively) one that did not advance it.
      if (page.nextCursor === null || page.notes.length === 0) return { notes, nextCursor: null };
      next = page.nextCursor;
    }
  }

  listDeleted(ctx: RpcContext): Promise<DeletedNoteListResponse> {
    return this.call(NOTES_PATTERNS.listDeleted, ctx, undefined);
  }
  create(ctx: RpcContext, body: CreateNoteBody): Promise<NoteResponse> {
    return this.call(NOTES_PATTERNS.create, ctx, body);
  }
  createBatch(ctx: RpcContext, body: CreateNoteBatchBody): Promise<CreateNoteBatchResponse> {
    return this.call(NOTES_PATTERNS.createBatch, ctx, body);
  }
  update(ctx: RpcContext, body: UpdateNoteRequest): Promise<NoteResponse> {
    return this.call(NOTES_PATTERNS.update, ctx, body);
  }
  rewrapKey(ctx: RpcContext, body: RewrapNoteKeyRequest): Promise<null> {
    return this.call(NOTES_PATTERNS.rewrapKey, ctx, body);
  }
  remove(ctx: RpcContext, body: NoteIdParam): Promise<null> {
    return this.call(NOTES_PATTERNS.remove, ctx, body);
  }
  restore(ctx: RpcContext, body: NoteIdParam): Promise<NoteResponse> {
    return this.call(NOTES_PATTERNS.restore, ctx, body);
  }
  purge(ctx: RpcContext, body: NoteIdParam): Promise<null> {
    return this.call(NOTES_PATTERNS.purge, ctx, body);
  }
  emptyTrash(ctx: RpcContext): Promise<EmptyTrashResponse> {
    return this.call(NOTES_PATTERNS.emptyTrash, ctx, undefined);
  }
  counts(ctx: RpcContext): Promise<NoteCountsResponse> {
    return this.call(NOTES_PATTERNS.counts, ctx, undefined);
  }
  health(ctx: RpcContext, timeoutMs: number): Promise<HealthReply> {
    return this.call(NOTES_PATTERNS.health, ctx, undefined, timeoutMs);
  }
}
