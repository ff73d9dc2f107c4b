import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { NOTES_PATTERNS, type RpcReply } from '@vault/contracts';
import { readOwnerCountsRequest } from '@vault/server-kit';
import { NotesService } from '../services/notes.service';

/**
 * The admin service's questions (ctx.admin set): the permission is checked again here, and the
 * answers are counts only.
 */
@Controller()
export class NotesAdminHandler {
  constructor(private readonly notes: NotesService) {}

  /** One owner's counts (users:read) or everyone's (stats:read). */
  @MessagePattern(NOTES_PATTERNS.adminCounts)
  counts(@Payload() payload: unknown): Promise<RpcReply<'notes.admin.counts'>> {
    const { ownerId } = readOwnerCountsRequest(NOTES_PATTERNS.adminCounts, payload);
    return this.notes.ownerCounts(ownerId);
  }
}
