import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { NOTES_PATTERNS, type RpcReply } from '@vault/contracts';
import { CallerService, readOwnerCountsRequest } from '@vault/server-kit';
import { NotesService } from '../services/notes.service';

/**
 * The admin service's questions (ctx.admin set): the admin's live console session and permission
 * are checked again here (CallerService.admin), and the answers are counts only.
 */
@Controller()
export class NotesAdminHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly notes: NotesService,
  ) {}

  /** One owner's counts (users:read) or everyone's (stats:read). */
  @MessagePattern(NOTES_PATTERNS.adminCounts)
  async counts(@Payload() payload: unknown): Promise<RpcReply<'notes.admin.counts'>> {
    const { ownerId } = await readOwnerCountsRequest(this.caller, NOTES_PATTERNS.adminCounts, payload);
    return this.notes.ownerCounts(ownerId);
  }
}
