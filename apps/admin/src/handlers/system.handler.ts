import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ADMIN_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { CallerService, readRpcBody } from '@vault/server-kit';
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
    private readonly caller: CallerService,
    private readonly health: SystemHealthService,
    private readonly rpc: ServiceRpc,
    private readonly operations: OperationsAdminService,
    private readonly audit: AuditLogRepository,
  ) {}

  @MessagePattern(P.systemHealth)
  async systemHealth(@Payload() payload: unknown): Promise<RpcReply<'admin.system-health'>> {
    return this.health.check((await adminCaller(this.caller, payload, 'system:read')).ctx);
  }

  @MessagePattern(P.failedScans)
  async failedScans(@Payload() payload: unknown): Promise<RpcReply<'admin.scans.failed'>> {
    const { ctx } = await adminCaller(this.caller, payload, 'scans:manage');
    return this.rpc.call('files.admin.failed-scans', ctx, readRpcBody(P.failedScans, payload));
  }

  @MessagePattern(P.retryScan)
  async retryScan(@Payload() payload: unknown): Promise<RpcReply<'admin.scans.retry'>> {
    const caller = await adminCaller(this.caller, payload, 'scans:manage');
    return this.operations.retryScan(caller, readRpcBody(P.retryScan, payload).fileId);
  }

  @MessagePattern(P.rescanAll)
  async rescanAll(@Payload() payload: unknown): Promise<RpcReply<'admin.scans.rescan-all'>> {
    const caller = await adminCaller(this.caller, payload, 'scans:manage');
    return this.operations.rescanAll(caller, readRpcBody(P.rescanAll, payload).reason);
  }

  @MessagePattern(P.auditList)
  async auditList(@Payload() payload: unknown): Promise<RpcReply<'admin.audit.list'>> {
    await this.caller.admin(payload, 'audit:read');
    const { limit, before } = readRpcBody(P.auditList, payload);
    return this.audit.list(limit, before);
  }

  @MessagePattern(P.auditVerify)
  async auditVerify(@Payload() payload: unknown): Promise<RpcReply<'admin.audit.verify'>> {
    await this.caller.admin(payload, 'audit:read');
    return auditVerifyDto(await this.audit.verify());
  }
}
