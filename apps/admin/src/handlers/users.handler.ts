import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ADMIN_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { readRpcBody } from '@vault/server-kit';
import { ServiceRpc } from '../rpc/service-rpc';
import { UsersAdminService } from '../services/users-admin.service';
import { adminCaller } from './admin-caller';

/**
 * The console's account calls: the admin's permission checked again (adminCaller), the body
 * validated with its contract schema, then the service (or auth directly for plain reads).
 */
@Controller()
export class UsersHandler {
  constructor(
    private readonly users: UsersAdminService,
    private readonly rpc: ServiceRpc,
  ) {}

  @MessagePattern(P.stats)
  stats(@Payload() payload: unknown): Promise<RpcReply<'admin.stats'>> {
    return this.users.stats(adminCaller(payload, 'stats:read'));
  }

  @MessagePattern(P.activity)
  activity(@Payload() payload: unknown): Promise<RpcReply<'admin.activity'>> {
    return this.rpc.call('auth.admin.activity', adminCaller(payload, 'stats:read').ctx, undefined);
  }

  @MessagePattern(P.users)
  list(@Payload() payload: unknown): Promise<RpcReply<'admin.users'>> {
    const { ctx } = adminCaller(payload, 'users:read');
    return this.rpc.call('auth.admin.users', ctx, readRpcBody(P.users, payload));
  }

  @MessagePattern(P.user)
  user(@Payload() payload: unknown): Promise<RpcReply<'admin.user'>> {
    const caller = adminCaller(payload, 'users:read');
    return this.users.user(caller, readRpcBody(P.user, payload).id);
  }

  @MessagePattern(P.lock)
  lock(@Payload() payload: unknown): Promise<RpcReply<'admin.lock'>> {
    const caller = adminCaller(payload, 'users:lock');
    return this.users.lock(caller, readRpcBody(P.lock, payload));
  }

  @MessagePattern(P.unlock)
  unlock(@Payload() payload: unknown): Promise<RpcReply<'admin.unlock'>> {
    const caller = adminCaller(payload, 'users:lock');
    return this.users.unlock(caller, readRpcBody(P.unlock, payload));
  }

  @MessagePattern(P.remove2fa)
  remove2fa(@Payload() payload: unknown): Promise<RpcReply<'admin.remove-2fa'>> {
    const caller = adminCaller(payload, 'users:2fa');
    return this.users.remove2fa(caller, readRpcBody(P.remove2fa, payload));
  }

  @MessagePattern(P.endSessions)
  endSessions(@Payload() payload: unknown): Promise<RpcReply<'admin.end-sessions'>> {
    const caller = adminCaller(payload, 'sessions:revoke');
    return this.users.endSessions(caller, readRpcBody(P.endSessions, payload));
  }

  @MessagePattern(P.setRole)
  setRole(@Payload() payload: unknown): Promise<RpcReply<'admin.set-role'>> {
    const caller = adminCaller(payload, 'super_admin');
    return this.users.setRole(caller, readRpcBody(P.setRole, payload));
  }

  @MessagePattern(P.bulk)
  bulk(@Payload() payload: unknown): Promise<RpcReply<'admin.bulk'>> {
    const body = readRpcBody(P.bulk, payload);
    const caller = adminCaller(payload, body.action === 'end-sessions' ? 'sessions:revoke' : 'users:lock');
    return this.users.bulk(caller, body);
  }
}
