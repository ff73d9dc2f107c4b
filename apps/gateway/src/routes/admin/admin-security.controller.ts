import { Controller, Param, Query, Res } from '@nestjs/common';
import {
  adminEventListSchema,
  adminEventsQuerySchema,
  adminSessionIdParamSchema,
  adminSessionListSchema,
  adminSessionsQuerySchema,
  ADMIN_LIMITS,
  ErrorCode as E,
  type AdminEventsQuery,
  type AdminSessionIdParam,
  type AdminSessionsQuery,
  type RpcContext,
  type RpcReply,
} from '@vault/contracts';
import type { FastifyReply } from 'fastify';
import { AdminOnly } from '../../auth/admin.decorators';
import { Route } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { ADMIN_ERRORS } from './admin-docs';

/** /api/admin security events and sessions (docs/api.md "Admin"). */
@Controller('admin')
export class AdminSecurityController {
  constructor(private readonly rpc: RpcClient) {}

  @AdminOnly('security:read')
  @Route('get', 'security/events', {
    summary: 'Security events, newest first, filtered (type, userId, from, to) and paged by `cursor`',
    success: [{ description: 'A page of events', schema: adminEventListSchema }],
    errors: ADMIN_ERRORS,
  })
  adminEvents(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(adminEventsQuerySchema)) query: AdminEventsQuery,
  ): Promise<RpcReply<'admin.events'>> {
    return this.rpc.call('admin.events', ctx, query);
  }

  @AdminOnly('security:read')
  @Route('get', 'security/events.csv', {
    summary:
      `The filtered security events as a CSV download (RFC 4180, header row, at most ${ADMIN_LIMITS.eventsCsvMax} ` +
      "rows; cells that a spreadsheet would run as a formula start with '). `X-Export-Truncated: true` when " +
      'more events matched. The export is audited',
    success: [{ description: 'text/csv attachment' }],
    errors: ADMIN_ERRORS,
  })
  async adminEventsCsv(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(adminEventsQuerySchema)) query: AdminEventsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, truncated } = await this.rpc.call('admin.events.csv', ctx, query);
    const day = new Date().toISOString().slice(0, 10);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="security-events-${day}.csv"`)
      .header('cache-control', 'no-store')
      .header('x-export-truncated', String(truncated));
    return csv;
  }

  @AdminOnly('sessions:read')
  @Route('get', 'sessions', {
    summary: 'Live sessions (never a token), newest first, optionally of one account, paged by `cursor`',
    success: [{ description: 'A page of sessions and the total', schema: adminSessionListSchema }],
    errors: ADMIN_ERRORS,
  })
  adminSessions(
    @Ctx() ctx: RpcContext,
    @Query(zodPipe(adminSessionsQuerySchema)) query: AdminSessionsQuery,
  ): Promise<RpcReply<'admin.sessions'>> {
    return this.rpc.call('admin.sessions', ctx, query);
  }

  @AdminOnly('sessions:revoke')
  @Route('delete', 'sessions/:id', {
    status: 204,
    summary: 'End one session: its next call answers 401 (audited: the session, then its owner)',
    success: [{ description: 'Ended' }],
    errors: [...ADMIN_ERRORS, E.NOT_FOUND, E.FORBIDDEN],
  })
  async adminRevokeSession(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(adminSessionIdParamSchema)) params: AdminSessionIdParam,
  ): Promise<void> {
    await this.rpc.call('admin.revoke-session', ctx, params);
  }
}
