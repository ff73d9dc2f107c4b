import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FILES_PATTERNS, type AdminFailedScanList, type AdminQueued, type RpcReply } from '@vault/contracts';
import { CallerService, readOwnerCountsRequest, readRpcBody } from '@vault/server-kit';
import { FilesAdminService } from '../services/files-admin.service';

/**
 * The admin service's questions (ctx.admin set): the admin's live console session and permission
 * are checked again here (CallerService.admin; before the body, unless the body decides which
 * permission), then the service.
 */
@Controller()
export class FilesAdminHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly admin: FilesAdminService,
  ) {}

  /** One owner's counts (users:read) or everyone's (stats:read). */
  @MessagePattern(FILES_PATTERNS.adminCounts)
  async counts(@Payload() payload: unknown): Promise<RpcReply<'files.admin.counts'>> {
    const { ownerId } = await readOwnerCountsRequest(this.caller, FILES_PATTERNS.adminCounts, payload);
    return this.admin.counts(ownerId);
  }

  @MessagePattern(FILES_PATTERNS.adminFailedScans)
  async failedScans(@Payload() payload: unknown): Promise<AdminFailedScanList> {
    await this.caller.admin(payload, 'scans:manage');
    return this.admin.failedScans(readRpcBody(FILES_PATTERNS.adminFailedScans, payload).limit);
  }

  @MessagePattern(FILES_PATTERNS.adminRetryScan)
  async retryScan(@Payload() payload: unknown): Promise<AdminQueued> {
    await this.caller.admin(payload, 'scans:manage');
    return this.admin.retryScan(readRpcBody(FILES_PATTERNS.adminRetryScan, payload).fileId);
  }

  @MessagePattern(FILES_PATTERNS.adminRescanAll)
  async rescanAll(@Payload() payload: unknown): Promise<AdminQueued> {
    await this.caller.admin(payload, 'scans:manage');
    return this.admin.rescanAll();
  }

  @MessagePattern(FILES_PATTERNS.adminStorageHealth)
  async storageHealth(@Payload() payload: unknown): Promise<RpcReply<'files.admin.storage-health'>> {
    await this.caller.admin(payload, 'system:read');
    return this.admin.storageHealth();
  }
}
