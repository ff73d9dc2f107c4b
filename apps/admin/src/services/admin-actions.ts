import { Injectable, Logger } from '@nestjs/common';
import { ERROR_INFO, ErrorCode, VaultError } from '@vault/contracts';
import type { AuditDetails, AuditEntryInput } from '../audit/audit-entry';
import type { AdminCaller } from '../handlers/admin-caller';
import { AuditLogRepository } from '../repositories/audit-log.repository';

/** What an action records about itself (who and from where come from the caller). */
export interface AuditedAction {
  /** `user.lock`, `session.revoke`, ... */
  action: string;
  targetType: string;
  targetId: string | null;
  reason?: string | null;
  /** Counts and ids only, never user data. */
  details?: AuditDetails;
}

/**
 * How an action that threw ended: a refusal (a 4xx) changed nothing, `failed`; a timeout, a peer
 * down or a 5xx leaves it `unknown`, since the other service may have done it before its answer
 * was lost (an audit saying `failed` would then be wrong).
 */
function outcomeOf(code: ErrorCode): 'failed' | 'unknown' {
  return ERROR_INFO[code].status < 500 ? 'failed' : 'unknown';
}

/**
 * Audit-then-act (apps/admin/README.md): the entry is appended FIRST, so no action happens
 * unaudited (an append that fails stops the action). When the action then fails, a second entry
 * `<action>.failed` (refused) or `<action>.unknown` (timeout, peer down, 5xx) records the error
 * code, and the error goes back unchanged (a 4xx stays a 4xx).
 */
@Injectable()
export class AdminActions {
  private readonly logger = new Logger(AdminActions.name);

  constructor(private readonly audit: AuditLogRepository) {}

  /**
   * Records `entry`, runs `act`; `followUp` may name a second entry once the result is known
   * (the owner of a revoked session).
   */
  async run<T>(
    caller: AdminCaller,
    entry: AuditedAction,
    act: () => Promise<T>,
    followUp?: (result: T) => AuditedAction,
  ): Promise<T> {
    await this.audit.append(this.entryOf(caller, entry));
    let result: T;
    try {
      result = await act();
    } catch (error) {
      const code = error instanceof VaultError ? error.code : ErrorCode.INTERNAL;
      await this.appendQuietly(caller, {
        ...entry,
        action: `${entry.action}.${outcomeOf(code)}`,
        details: { ...entry.details, error: code },
      });
      throw error;
    }
    if (followUp) await this.appendQuietly(caller, followUp(result));
    return result;
  }

  /**
   * After the action ran (or failed), a failing append must not hide its outcome: the first
   * entry already holds the intent, so this one is logged as lost instead of thrown.
   */
  private async appendQuietly(caller: AdminCaller, entry: AuditedAction): Promise<void> {
    try {
      await this.audit.append(this.entryOf(caller, entry));
    } catch (error) {
      this.logger.error(
        `Audit entry ${entry.action} could not be appended: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private entryOf({ ctx, admin }: AdminCaller, entry: AuditedAction): AuditEntryInput {
    return {
      actorId: admin.id,
      actorLabel: admin.label || admin.id,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      reason: entry.reason ?? null,
      ip: ctx.ip.slice(0, 100),
      userAgent: ctx.userAgent.slice(0, 1000),
      details: entry.details ?? {},
    };
  }
}
