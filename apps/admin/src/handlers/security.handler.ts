import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ADMIN_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { CallerService, readRpcBody } from '@vault/server-kit';
import { ServiceRpc } from '../rpc/service-rpc';
import { EventsExportService } from '../services/events-export.service';
import { OperationsAdminService } from '../services/operations-admin.service';
import { adminCaller } from './admin-caller';

/** Security events and sessions: reads go to auth, the export and the revocation are audited. */
@Controller()
export class SecurityHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly rpc: ServiceRpc,
    private readonly exports: EventsExportService,
    private readonly operations: OperationsAdminService,
  ) {}

  @MessagePattern(P.events)
  async events(@Payload() payload: unknown): Promise<RpcReply<'admin.events'>> {
    const { ctx } = await adminCaller(this.caller, payload, 'security:read');
    return this.rpc.call('auth.admin.events', ctx, readRpcBody(P.events, payload));
  }

  @MessagePattern(P.eventsCsv)
  async eventsCsv(@Payload() payload: unknown): Promise<RpcReply<'admin.events.csv'>> {
    const caller = await adminCaller(this.caller, payload, 'security:read');
    return this.exports.export(caller, readRpcBody(P.eventsCsv, payload));
  }

  @MessagePattern(P.sessions)
  async sessions(@Payload() payload: unknown): Promise<RpcReply<'admin.sessions'>> {
    const { ctx } = await adminCaller(this.caller, payload, 'sessions:read');
    return this.rpc.call('auth.admin.sessions', ctx, readRpcBody(P.sessions, payload));
  }

  @MessagePattern(P.revokeSession)
  async revokeSession(@Payload() payload: unknown): Promise<null> {
    const caller = await adminCaller(this.caller, payload, 'sessions:revoke');
    return this.operations.revokeSession(caller, readRpcBody(P.revokeSession, payload).id);
  }
}
