import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FILES_PATTERNS, type AdminFailedScanList, type AdminQueued, type RpcReply } from '@vault/contracts';
import { readAdmin, readOwnerCountsRequest, readRpcBody } from '@vault/server-kit';
import { FilesAdminService } from '../services/files-admin.service';

/**
 * The admin service's questions (ctx.admin set): the permission is checked again here (before
 * the body, unless the body decides which permission), then the service.
 */
@Controller()
export class FilesAdminHandler {
  constructor(private readonly admin: FilesAdminService) {}

  /** One owner's counts (users:read) or everyone's (stats:read). */
  @MessagePattern(FILES_PATTERNS.adminCounts)
  counts(@Payload() payload: unknown): Promise<RpcReply<'files.admin.counts'>> {
    const { ownerId } = readOwnerCountsRequest(FILES_PATTERNS.adminCounts, payload);
    return this.admin.counts(ownerId);
  }

  @MessagePattern(FILES_PATTERNS.adminFailedScans)
  failedScans(@Payload() payload: unknown): Promise<AdminFailedScanList> {
    readAdmin(payload, 'scans:manage');
    return this.admin.failedScans(readRpcBody(FILES_PATTERNS.adminFailedScans, payload).limit);
  }

  @MessagePattern(FILES_PATTERNS.adminRetryScan)
  retryScan(@Payload() payload: unknown): Promise<AdminQueued> {
    readAdmin(payload, 'scans:manage');
    return this.admin.retryScan(readRpcBody(FILES_PATTERNS.adminRetryScan, payload).fileId);
  }

  @MessagePattern(FILES_PATTERNS.adminRescanAll)
  rescanAll(@Payload() payload: unknown): Promise<AdminQueued> {
    readAdmin(payload, 'scans:manage');
    return this.admin.rescanAll();
  }

  @MessagePattern(FILES_PATTERNS.adminStorageHealth)
  storageHealth(@Payload() payload: unknown): Promise<RpcReply<'files.admin.storage-health'>> {
    readAdmin(payload, 'system:read');
    return this.admin.storageHealth();
  }
}
