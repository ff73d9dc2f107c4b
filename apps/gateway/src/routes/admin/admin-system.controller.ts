import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  adminFailedScanListSchema,
  adminFileIdParamSchema,
  adminQueuedSchema,
  adminReasonBodySchema,
  auditListSchema,
  auditQuerySchema,
  auditVerifySchema,
  ErrorCode as E,
  failedScansRequestSchema,
  systemHealthSchema,
  type AdminFileIdParam,
  type AdminReasonBody,
  type AuditQuery,
  type RpcContext,
  type RpcReply,
} from '@vault/contracts';
import type { z } from 'zod';
import { AdminOnly } from '../../auth/admin.decorators';
import { Route } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { ADMIN_ERRORS } from './admin-docs';

/** /api/admin system health, malware scans and the admin audit log (docs/api.md "Admin"). */
@Controller('admin')
export class AdminSystemController {
  constructor(private readonly rpc: RpcClient) {}

  @AdminOnly('system:read')
  @Route('get', 'system/health', {
    summary:
      'Every dependency (database, Redis, services, scan worker, queues, storage, clamd), each asked ' +
      'within 2 s: one that is down is reported down and the status is `degraded`, never an error',
    success: [{ description: 'System health', schema: systemHealthSchema }],
    errors: ADMIN_ERRORS,
  })
  adminSystemHealth(@Ctx() ctx: RpcContext): Promise<RpcReply<'admin.system-health'>> {
    return this.rpc.call('admin.system-health', ctx, undefined);
  }

  @AdminOnly('scans:manage')
  @Route('get', 'scans/failed', {
    summary: 'Files whose malware scan failed for good (ids, sizes and reasons; never a name)',
    success: [{ description: 'Failed scans', schema: adminFailedScanListSchema }],
    errors: ADMIN_ERRORS,
  })
  adminFailedScans(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(failedScansRequestSchema)) query: z.output<typeof failedScansRequestSchema>,
  ): Promise<RpcReply<'admin.scans.failed'>> {
    return this.rpc.call('admin.scans.failed', ctx, query);
  }

  @AdminOnly('scans:manage')
  @Route('post', 'scans/:fileId/retry', {
    status: 200,
    summary: "Queue a failed file's scan again (audited)",
    success: [{ description: 'Queued', schema: adminQueuedSchema }],
    errors: [...ADMIN_ERRORS, E.NOT_FOUND],
  })
  adminRetryScan(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminFileIdParamSchema)) params: AdminFileIdParam,
  ): Promise<RpcReply<'admin.scans.retry'>> {
    return this.rpc.call('admin.scans.retry', ctx, params);
  }

  @AdminOnly('scans:manage')
  @Route('post', 'scans/rescan-all', {
    status: 200,
    summary: 'Queue a scan of every stored file (audited)',
    success: [{ description: 'How many were queued', schema: adminQueuedSchema }],
    errors: [...ADMIN_ERRORS, E.CONFLICT],
  })
  adminRescanAll(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(adminReasonBodySchema)) body: AdminReasonBody,
  ): Promise<RpcReply<'admin.scans.rescan-all'>> {
    return this.rpc.call('admin.scans.rescan-all', ctx, { reason: body.reason });
  }

  @AdminOnly('audit:read')
  @Route('get', 'audit', {
    summary: 'The admin audit log, newest first; `before` pages back',
    success: [{ description: 'Entries', schema: auditListSchema }],
    errors: ADMIN_ERRORS,
  })
  adminAudit(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(auditQuerySchema)) query: AuditQuery,
  ): Promise<RpcReply<'admin.audit.list'>> {
    return this.rpc.call('admin.audit.list', ctx, query);
  }

  @AdminOnly('audit:read')
  @Route('get', 'audit/verify', {
    summary:
      "Check the audit log's hash chain: ok, or the first entry that was altered, removed or reordered",
    success: [{ description: 'Verification', schema: auditVerifySchema }],
    errors: ADMIN_ERRORS,
  })
  adminAuditVerify(@Ctx() ctx: RpcContext): Promise<RpcReply<'admin.audit.verify'>> {
    return this.rpc.call('admin.audit.verify', ctx, undefined);
  }
}
