import { Injectable } from '@nestjs/common';
import type { RpcReply } from '@vault/contracts';
import type { AdminCaller } from '../handlers/admin-caller';
import { ServiceRpc } from '../rpc/service-rpc';
import { AdminActions } from './admin-actions';

/** The console's actions on sessions and scans, each audited before it runs (AdminActions). */
@Injectable()
export class OperationsAdminService {
  constructor(
    private readonly rpc: ServiceRpc,
    private readonly actions: AdminActions,
  ) {}

  /**
   * Whose session it was is known only once auth has revoked it: the first entry names the
   * session, a second one (`session.revoke.owner`, target the user) records its owner.
   */
  async revokeSession(caller: AdminCaller, id: string): Promise<null> {
    await this.actions.run(
      caller,
      { action: 'session.revoke', targetType: 'session', targetId: id },
      () => this.rpc.call('auth.admin.revoke-session', caller.ctx, { id }),
      ({ userId }) => ({
        action: 'session.revoke.owner',
        targetType: 'user',
        targetId: userId,
        details: { sessionId: id },
      }),
    );
    return null;
  }

  retryScan(caller: AdminCaller, fileId: string): Promise<RpcReply<'admin.scans.retry'>> {
    return this.actions.run(caller, { action: 'scan.retry', targetType: 'file', targetId: fileId }, () =>
      this.rpc.call('files.admin.retry-scan', caller.ctx, { fileId }),
    );
  }

  rescanAll(caller: AdminCaller, reason: string | undefined): Promise<RpcReply<'admin.scans.rescan-all'>> {
    return this.actions.run(
      caller,
      { action: 'scan.rescan-all', targetType: 'system', targetId: null, reason },
      () => this.rpc.call('files.admin.rescan-all', caller.ctx, undefined),
    );
  }
}
