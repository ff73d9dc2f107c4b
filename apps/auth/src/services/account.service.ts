import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  VaultError,
  type ChangePasswordBody,
  type MeResponse,
  type RpcAuth,
  type RpcContext,
} from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import { toMeResponse } from '../mappers/user.mapper';
import { AdminSessionsRepository } from '../repositories/admin-sessions.repository';
import { UsersRepository } from '../repositories/users.repository';
import { SecurityEventsService } from './security-events.service';
import { SessionService } from './session.service';

/** The signed-in user's own account. */
@Injectable()
export class AccountService {
  private readonly logger = new Logger(AccountService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: SecretHasher,
    private readonly sessions: SessionService,
    private readonly adminSessions: AdminSessionsRepository,
    private readonly events: SecurityEventsService,
  ) {}

  async me(auth: RpcAuth): Promise<MeResponse> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    return toMeResponse(user);
  }

  /**
   * New hash, salt, KDF parameters and wrapped vault key in one transaction (the vault key
   * itself does not change, docs/crypto-protocol.md "Flows"); then every other
   * session of the user ends, and every admin-console session (signed in with the old key). A wrong current key answers 401 and does not count toward
   * the lockout (the caller is already signed in).
   */
  async changePassword(auth: RpcAuth, body: ChangePasswordBody, ctx: RpcContext): Promise<void> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    if (!(await this.hasher.verify(user.authHash, body.currentAuthKey))) {
      throw new VaultError(ErrorCode.INVALID_CREDENTIALS);
    }
    const authHash = await this.hasher.hash(body.authKey);
    const applied = await this.users.replaceCredentials(
      user.id,
      user.authHash,
      { authHash, salt: body.salt, kdfParams: body.kdfParams, wrappedVaultKey: body.wrappedVaultKey },
      this.events.build('password_changed', user.id, ctx, { sessionId: auth.sessionId }),
    );
    // A concurrent change got there first: the key this request proved is no longer current.
    if (!applied) throw new VaultError(ErrorCode.INVALID_CREDENTIALS);
    const revoked = await this.sessions.revokeAllExcept(user.id, auth.sessionId);
    const consoleEnded = await this.adminSessions.endAllFor(user.id);
    this.logger.log(
      `Password changed: user ${user.id}, ${revoked} other session(s) and ${consoleEnded} console session(s) ended`,
    );
  }

  /**
   * Re-checks the signed-in user's authKey before a file download or preview (docs/api.md
   * "Files": both re-check `authKey`). Like a change of password, a wrong key answers 401
   * 'Invalid password' and is logged as a security event, but does not lock the account: the
   * caller already holds a live session, and the gateway rate-limits the route.
   */
  async verifyAuthKey(auth: RpcAuth, authKey: string, ctx: RpcContext): Promise<{ ok: true }> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    if (!(await this.hasher.verify(user.authHash, authKey))) {
      await this.events.record('reauth_failure', user.id, ctx, { sessionId: auth.sessionId });
      throw new VaultError(ErrorCode.INVALID_PASSWORD);
    }
    return { ok: true };
  }
}
