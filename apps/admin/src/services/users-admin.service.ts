import { Injectable } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type AdminBulkRequest,
  type AdminBulkResult,
  type RpcReply,
  type RpcRequestBody,
} from '@vault/contracts';
import type { AuditDetails } from '../audit/audit-entry';
import type { AdminCaller } from '../handlers/admin-caller';
import { ServiceRpc } from '../rpc/service-rpc';
import { AdminActions } from './admin-actions';

type Body<P extends Parameters<ServiceRpc['call']>[0]> = RpcRequestBody<P>;

/**
 * The console's account calls: reads put together from auth, notes and files (counts only), and
 * actions on accounts, each audited before it runs (AdminActions).
 */
@Injectable()
export class UsersAdminService {
  constructor(
    private readonly rpc: ServiceRpc,
    private readonly actions: AdminActions,
  ) {}

  /** Auth's account and session counts with every note and file counted (asked at once). */
  async stats({ ctx }: AdminCaller): Promise<RpcReply<'admin.stats'>> {
    const [auth, notes, files] = await Promise.all([
      this.rpc.call('auth.admin.stats', ctx, undefined),
      this.rpc.call('notes.admin.counts', ctx, {}),
      this.rpc.call('files.admin.counts', ctx, {}),
    ]);
    return {
      ...auth,
      // Everything stored, the trash included (it holds storage until purged).
      totalNotes: notes.notes + notes.deletedNotes,
      totalFiles: files.files + files.deletedFiles,
      storedBytes: files.bytes,
      timestamp: new Date().toISOString(),
    };
  }

  /**
   * Auth's account, sessions and events, with that owner's note and file counts. A person's IPs,
   * devices and activity: audited first like an action (`user.view`), so no one's details are
   * read unrecorded.
   */
  user(caller: AdminCaller, id: string): Promise<RpcReply<'admin.user'>> {
    const { ctx } = caller;
    return this.actions.run(caller, { action: 'user.view', targetType: 'user', targetId: id }, async () => {
      const [details, notes, files] = await Promise.all([
        this.rpc.call('auth.admin.user', ctx, { id }),
        this.rpc.call('notes.admin.counts', ctx, { ownerId: id }),
        this.rpc.call('files.admin.counts', ctx, { ownerId: id }),
      ]);
      return { ...details, counts: { ...notes, ...files } };
    });
  }

  lock(
    caller: AdminCaller,
    body: Body<'auth.admin.lock'>,
    extra: AuditDetails = {},
  ): Promise<RpcReply<'admin.lock'>> {
    return this.onUser(caller, 'user.lock', body, { minutes: body.duration, ...extra }, () =>
      this.rpc.call('auth.admin.lock', caller.ctx, body),
    );
  }

  unlock(
    caller: AdminCaller,
    body: Body<'auth.admin.unlock'>,
    extra: AuditDetails = {},
  ): Promise<RpcReply<'admin.unlock'>> {
    return this.onUser(caller, 'user.unlock', body, extra, () =>
      this.rpc.call('auth.admin.unlock', caller.ctx, body),
    );
  }

  remove2fa(caller: AdminCaller, body: Body<'auth.admin.remove-2fa'>): Promise<RpcReply<'admin.remove-2fa'>> {
    return this.onUser(caller, 'user.remove-2fa', body, undefined, () =>
      this.rpc.call('auth.admin.remove-2fa', caller.ctx, body),
    );
  }

  endSessions(
    caller: AdminCaller,
    body: Body<'auth.admin.end-sessions'>,
    extra: AuditDetails = {},
  ): Promise<RpcReply<'admin.end-sessions'>> {
    return this.onUser(caller, 'user.end-sessions', body, extra, () =>
      this.rpc.call('auth.admin.end-sessions', caller.ctx, body),
    );
  }

  setRole(caller: AdminCaller, body: Body<'auth.admin.set-role'>): Promise<RpcReply<'admin.set-role'>> {
    const permissions = body.role === 'admin' ? body.permissions : [];
    return this.onUser(caller, 'user.set-role', body, { role: body.role, permissions }, () =>
      this.rpc.call('auth.admin.set-role', caller.ctx, body),
    );
  }

  /**
   * One action over many accounts: checked as a whole first (lock needs a reason and a duration),
   * then each account on its own, audited on its own; one account's error does not stop the rest.
   */
  async bulk(caller: AdminCaller, request: AdminBulkRequest): Promise<AdminBulkResult> {
    const { action, ids, reason, duration } = request;
    if (action === 'lock' && !reason)
      throw new VaultError(ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.reasonRequired);
    if (action === 'lock' && duration === undefined) {
      throw new VaultError(ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.duration);
    }
    const results: AdminBulkResult['results'] = [];
    const extra = { bulk: true, count: ids.length };
    // One at a time: the audit appends are chained one by one anyway, and auth is not flooded.
    for (const id of new Set(ids)) {
      try {
        if (action === 'lock')
          await this.lock(caller, { id, reason: reason ?? '', duration: duration ?? 0 }, extra);
        else if (action === 'unlock') await this.unlock(caller, { id, reason }, extra);
        else await this.endSessions(caller, { id, reason }, extra);
        results.push({ id, ok: true });
      } catch (error) {
        if (!(error instanceof VaultError)) throw error;
        results.push({ id, ok: false, error: error.code });
      }
    }
    return { results };
  }

  /** An action on one account, audited first (AdminActions): the account and the reason are the body's. */
  private onUser<T>(
    caller: AdminCaller,
    action: string,
    body: { id: string; reason?: string },
    details: AuditDetails | undefined,
    act: () => Promise<T>,
  ): Promise<T> {
    return this.actions.run(
      caller,
      { action, targetType: 'user', targetId: body.id, reason: body.reason, details },
      act,
    );
  }
}
