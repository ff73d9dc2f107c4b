import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, VaultError, type RpcAuth, type RpcContext } from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import { AccountDeletionRepository } from '../repositories/account-deletion.repository';
import { AdminSessionsRepository } from '../repositories/admin-sessions.repository';
import { PurgeQueueRepository } from '../repositories/purge-queue.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { UsersRepository } from '../repositories/users.repository';
import { LoginGuardService } from './login-guard.service';
import { SecurityEventsService } from './security-events.service';
import { UnusualActivityService } from './unusual-activity.service';

/** How long purge jobs wait for the deletion's commit before they start by themselves. */
export const PURGE_HOLD_MS = 60_000;

/**
 * DELETE /api/auth/account. Auth owns the account, so it decides: it re-checks the authKey,
 * then in one database transaction deletes the user (every auth row cascades), records
 * `account_deleted`, queues the purge jobs of the other owners (notes, files) and revokes every
 * session, vault and admin console; a failure before the commit leaves the account as it was.
 * The purge jobs retry until the notes and files are gone.
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger(AccountDeletionService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: SecretHasher,
    private readonly deletion: AccountDeletionRepository,
    private readonly purge: PurgeQueueRepository,
    private readonly sessions: SessionsRepository,
    private readonly adminSessions: AdminSessionsRepository,
    private readonly guard: LoginGuardService,
    private readonly unusual: UnusualActivityService,
    private readonly events: SecurityEventsService,
  ) {}

  /**
   * A wrong key answers 401 'Invalid password' and is logged like the other re-checks; it does
   * not lock the account (the caller already holds a live session, the gateway rate-limits).
   */
  async deleteAccount(auth: RpcAuth, authKey: string, ctx: RpcContext): Promise<void> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    if (!(await this.hasher.verify(user.authHash, authKey))) {
      await this.events.record('reauth_failure', user.id, ctx, {
        sessionId: auth.sessionId,
        purpose: 'account_deletion',
      });
      throw new VaultError(ErrorCode.INVALID_PASSWORD);
    }

    const requestedAt = new Date().toISOString();
    // The audit row must outlive the account: no user_id (it would cascade), the id in details.
    const event = this.events.build('account_deleted', null, ctx, { userId: user.id });
    let revoked = 0;
    let queued = false;
    let deleted: boolean;
    try {
      deleted = await this.deletion.deleteUser(user.id, event, async () => {
        // Set first: a queuePurge that fails half-way (one queue added, not the other) still
        // leaves a held job to cancel. Only reached when this transaction deleted the row.
        queued = true;
        await this.purge.queuePurge({ userId: user.id, requestedAt }, PURGE_HOLD_MS);
        revoked = await this.sessions.revokeAllForUser(user.id);
        await this.adminSessions.endAllFor(user.id);
      });
    } catch (error) {
      if (queued) await this.purge.cancel(user.id);
      throw error;
    }
    if (!deleted) return; // a concurrent deletion of the same account got there first
    // Committed: start the purges now (held jobs would still start by themselves).
    await this.purge
      .release(user.id)
      .catch((error: unknown) =>
        this.logger.warn(
          `Account purge of user ${user.id} starts after the hold: ${error instanceof Error ? error.message : error}`,
        ),
      );
    await this.unusual.forgetDevices(user.id);
    await this.guard.clearFailures(LoginGuardService.accountSubject(user.id));
    this.logger.log(`Account deleted: user ${user.id}, ${revoked} session(s) revoked, purge queued`);
  }
}
