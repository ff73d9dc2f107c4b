import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  NOTES_PATTERNS,
  type CreateNoteBatchResponse,
  type DeletedNoteListResponse,
  type EmptyTrashResponse,
  type NoteCountsResponse,
  type NoteListPage,
  type NoteResponse,
} from '@vault/contracts';
import { NotesService } from '../services/notes.service';
import { CallerService, readRpcBody } from '@vault/server-kit';

/**
 * One-liners per NOTES_PATTERNS entry: the caller (a live session of the user the context
 * names), the body validated again with the contract schema, then the service.
 */
@Controller()
export class NotesHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly notes: NotesService,
  ) {}

  @MessagePattern(NOTES_PATTERNS.list)
  async list(@Payload() payload: unknown): Promise<NoteListPage> {
    const auth = await this.caller.of(payload);
    return this.notes.list(auth, readRpcBody(NOTES_PATTERNS.list, payload));
  }

  @MessagePattern(NOTES_PATTERNS.listDeleted)
  async listDeleted(@Payload() payload: unknown): Promise<DeletedNoteListResponse> {
    return this.notes.listDeleted(await this.caller.of(payload));
  }

  @MessagePattern(NOTES_PATTERNS.create)
  async create(@Payload() payload: unknown): Promise<NoteResponse> {
    const auth = await this.caller.of(payload);
    return this.notes.create(auth, readRpcBody(NOTES_PATTERNS.create, payload));
  }

  @MessagePattern(NOTES_PATTERNS.createBatch)
  async createBatch(@Payload() payload: unknown): Promise<CreateNoteBatchResponse> {
    const auth = await this.caller.of(payload);
    return this.notes.createBatch(auth, readRpcBody(NOTES_PATTERNS.createBatch, payload));
  }

  @MessagePattern(NOTES_PATTERNS.update)
  async update(@Payload() payload: unknown): Promise<NoteResponse> {
    const auth = await this.caller.of(payload);
    return this.notes.update(auth, readRpcBody(NOTES_PATTERNS.update, payload));
  }

  @MessagePattern(NOTES_PATTERNS.rewrapKey)
  async rewrapKey(@Payload() payload: unknown): Promise<null> {
    const auth = await this.caller.of(payload);
    await this.notes.rewrapKey(auth, readRpcBody(NOTES_PATTERNS.rewrapKey, payload));
    return null;
  }

  @MessagePattern(NOTES_PATTERNS.remove)
  async remove(@Payload() payload: unknown): Promise<null> {
    const auth = await this.caller.of(payload);
    await this.notes.remove(auth, readRpcBody(NOTES_PATTERNS.remove, payload).id);
    return null;
  }

  @MessagePattern(NOTES_PATTERNS.restore)
  async restore(@Payload() payload: unknown): Promise<NoteResponse> {
    const auth = await this.caller.of(payload);
    return this.notes.restore(auth, readRpcBody(NOTES_PATTERNS.restore, payload).id);
  }

  @MessagePattern(NOTES_PATTERNS.purge)
  async purge(@Payload() payload: unknown): Promise<null> {
    const auth = await this.caller.of(payload);
    await this.notes.purge(auth, readRpcBody(NOTES_PATTERNS.purge, payload).id);
    return null;
  }

  @MessagePattern(NOTES_PATTERNS.emptyTrash)
  async emptyTrash(@Payload() payload: unknown): Promise<EmptyTrashResponse> {
    return this.notes.emptyTrash(await this.caller.of(payload));
  }

  @MessagePattern(NOTES_PATTERNS.counts)
  async counts(@Payload() payload: unknown): Promise<NoteCountsResponse> {
    return this.notes.counts(await this.caller.of(payload));
  }
}
