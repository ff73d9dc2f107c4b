import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ADMIN_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { readRpcBody } from '@vault/server-kit';
import { auditVerifyDto } from '../audit/audit-entry-dto';
import { SystemHealthService } from '../health/system-health.service';
import { AuditLogRepository } from '../repositories/audit-log.repository';
import { ServiceRpc } from '../rpc/service-rpc';
import { OperationsAdminService } from '../services/operations-admin.service';
import { adminCaller } from './admin-caller';

/** System health, the malware scans and the admin audit log. */
@Controller()
export class SystemHandler {
  constructor(
    private readonly health: SystemHealthService,
    private readonly rpc: ServiceRpc,
    private readonly operations: OperationsAdminService,
    private readonly audit: AuditLogRepository,
  ) {}

  @MessagePattern(P.systemHealth)
  systemHealth(@Payload() payload: unknown): Promise<RpcReply<'admin.system-health'>> {
    return this.health.check(adminCaller(payload, 'system:read').ctx);
  }

  @MessagePattern(P.failedScans)
  failedScans(@Payload() payload: unknown): Promise<RpcReply<'admin.scans.failed'>> {
    const { ctx } = adminCaller(payload, 'scans:manage');
    return this.rpc.call('files.admin.failed-scans', ctx, readRpcBody(P.failedScans, payload));
  }

  @MessagePattern(P.retryScan)
  retryScan(@Payload() payload: unknown): Promise<RpcReply<'admin.scans.retry'>> {
    const caller = adminCaller(payload, 'scans:manage');
    return this.operations.retryScan(caller, readRpcBody(P.retryScan, payload).fileId);
  }

  @MessagePattern(P.rescanAll)
  rescanAll(@Payload() payload: unknown): Promise<RpcReply<'admin.scans.rescan-all'>> {
    const caller = adminCaller(payload, 'scans:manage');
    return this.operations.rescanAll(caller, readRpcBody(P.rescanAll, payload).reason);
  }

  @MessagePattern(P.auditList)
  auditList(@Payload() payload: unknown): Promise<RpcReply<'admin.audit.list'>> {
    adminCaller(payload, 'audit:read');
    const { limit, before } = readRpcBody(P.auditList, payload);
    return this.audit.list(limit, before);
  }

  @MessagePattern(P.auditVerify)
  async auditVerify(@Payload() payload: unknown): Promise<RpcReply<'admin.audit.verify'>> {
    adminCaller(payload, 'audit:read');
    return auditVerifyDto(await this.audit.verify());
  }
}
