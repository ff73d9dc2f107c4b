import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ADMIN_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { CallerService, readRpcBody } from '@vault/server-kit';
import { ServiceRpc } from '../rpc/service-rpc';
import { UsersAdminService } from '../services/users-admin.service';
import { adminCaller } from './admin-caller';

/**
 * The console's account calls: the admin's session and permission checked again (adminCaller),
 * the body validated with its contract schema, then the service (or auth directly for plain reads).
 */
@Controller()
export class UsersHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly users: UsersAdminService,
    private readonly rpc: ServiceRpc,
  ) {}

  @MessagePattern(P.stats)
  async stats(@Payload() payload: unknown): Promise<RpcReply<'admin.stats'>> {
    return this.users.stats(await adminCaller(this.caller, payload, 'stats:read'));
  }

  @MessagePattern(P.activity)
  async activity(@Payload() payload: unknown): Promise<RpcReply<'admin.activity'>> {
    return this.rpc.call(
      'auth.admin.activity',
      (await adminCaller(this.caller, payload, 'stats:read')).ctx,
      undefined,
    );
  }

  @MessagePattern(P.users)
  async list(@Payload() payload: unknown): Promise<RpcReply<'admin.users'>> {
    const { ctx } = await adminCaller(this.caller, payload, 'users:read');
    return this.rpc.call('auth.admin.users', ctx, readRpcBody(P.users, payload));
  }

  @MessagePattern(P.user)
  async user(@Payload() payload: unknown): Promise<RpcReply<'admin.user'>> {
    const caller = await adminCaller(this.caller, payload, 'users:read');
    return this.users.user(caller, readRpcBody(P.user, payload).id);
  }

  @MessagePattern(P.lock)
  async lock(@Payload() payload: unknown): Promise<RpcReply<'admin.lock'>> {
    const caller = await adminCaller(this.caller, payload, 'users:lock');
    return this.users.lock(caller, readRpcBody(P.lock, payload));
  }

  @MessagePattern(P.unlock)
  async unlock(@Payload() payload: unknown): Promise<RpcReply<'admin.unlock'>> {
    const caller = await adminCaller(this.caller, payload, 'users:lock');
    return this.users.unlock(caller, readRpcBody(P.unlock, payload));
  }

  @MessagePattern(P.remove2fa)
  async remove2fa(@Payload() payload: unknown): Promise<RpcReply<'admin.remove-2fa'>> {
    const caller = await adminCaller(this.caller, payload, 'users:2fa');
    return this.users.remove2fa(caller, readRpcBody(P.remove2fa, payload));
  }

  @MessagePattern(P.endSessions)
  async endSessions(@Payload() payload: unknown): Promise<RpcReply<'admin.end-sessions'>> {
    const caller = await adminCaller(this.caller, payload, 'sessions:revoke');
    return this.users.endSessions(caller, readRpcBody(P.endSessions, payload));
  }

  @MessagePattern(P.setRole)
  async setRole(@Payload() payload: unknown): Promise<RpcReply<'admin.set-role'>> {
    const caller = await adminCaller(this.caller, payload, 'super_admin');
    return this.users.setRole(caller, readRpcBody(P.setRole, payload));
  }

  @MessagePattern(P.bulk)
  async bulk(@Payload() payload: unknown): Promise<RpcReply<'admin.bulk'>> {
    const body = readRpcBody(P.bulk, payload);
    const permission = body.action === 'end-sessions' ? 'sessions:revoke' : 'users:lock';
    const caller = await adminCaller(this.caller, payload, permission);
    return this.users.bulk(caller, body);
  }
}
