import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  type AccountSettings,
  type AuthResponse,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type BackupLoginBody,
  type ChangePasswordBody,
  type DeleteAccountBody,
  type FileAccessBody,
  type HealthReply,
  type LoginBody,
  type MeResponse,
  type PreloginBody,
  type PreloginResponse,
  type RefreshRequestBody,
  type RefreshResponse,
  type Requires2faResponse,
  type RpcContext,
  type SessionIdParam,
  type SessionListResponse,
  type SignupBody,
  type TwoFactorEnableBody,
  type TwoFactorEnableResponse,
  type TwoFactorLoginBody,
  type TwoFactorProofBody,
  type TwoFactorVerifyBody,
  type VerifyEmergencyBody,
  type WithRefresh,
} from '@vault/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { RpcServiceClient } from './rpc-service.client';

export const AUTH_RPC = Symbol('AUTH_RPC');

export type LoginReply = WithRefresh<AuthResponse | Requires2faResponse>;
export type SignupReply = WithRefresh<AuthResponse>;
export type RefreshReply = WithRefresh<RefreshResponse>;
export interface LogoutRequestBody {
  refreshToken?: string;
}

/** The auth service's message patterns, typed (see RpcServiceClient). */
@Injectable()
export class AuthRpcClient extends RpcServiceClient {
  constructor(@Inject(AUTH_RPC) client: ClientProxy, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super(client, config);
  }

  prelogin(ctx: RpcContext, body: PreloginBody): Promise<PreloginResponse> {
    return this.call(AUTH_PATTERNS.prelogin, ctx, body);
  }
  signup(ctx: RpcContext, body: SignupBody): Promise<SignupReply> {
    return this.call(AUTH_PATTERNS.signup, ctx, body);
  }
  login(ctx: RpcContext, body: LoginBody): Promise<LoginReply> {
    return this.call(AUTH_PATTERNS.login, ctx, body);
  }
  refresh(ctx: RpcContext, body: RefreshRequestBody): Promise<RefreshReply> {
    return this.call(AUTH_PATTERNS.refresh, ctx, body);
  }
  logout(ctx: RpcContext, body: LogoutRequestBody): Promise<null> {
    return this.call(AUTH_PATTERNS.logout, ctx, body);
  }
  me(ctx: RpcContext): Promise<MeResponse> {
    return this.call(AUTH_PATTERNS.me, ctx, undefined);
  }
  changePassword(ctx: RpcContext, body: ChangePasswordBody): Promise<null> {
    return this.call(AUTH_PATTERNS.changePassword, ctx, body);
  }
  listSessions(ctx: RpcContext): Promise<SessionListResponse> {
    return this.call(AUTH_PATTERNS.listSessions, ctx, undefined);
  }
  revokeSession(ctx: RpcContext, body: SessionIdParam): Promise<null> {
    return this.call(AUTH_PATTERNS.revokeSession, ctx, body);
  }
  /** Re-checks the caller's authKey (file download and preview): `{ok: true}` or INVALID_PASSWORD. */
  verifyAuthKey(ctx: RpcContext, body: FileAccessBody): Promise<{ ok: true }> {
    return this.call(AUTH_PATTERNS.verifyAuthKey, ctx, body);
  }
  /** Deletes the caller's account once its authKey checks out (INVALID_PASSWORD otherwise). */
  deleteAccount(ctx: RpcContext, body: DeleteAccountBody): Promise<null> {
    return this.call(AUTH_PATTERNS.deleteAccount, ctx, body);
  }
  /** Sign-in after a 418: as login, or EMERGENCY_VERIFICATION_FAILED. */
  verifyEmergency(ctx: RpcContext, body: VerifyEmergencyBody): Promise<LoginReply> {
    return this.call(AUTH_PATTERNS.verifyEmergency, ctx, body);
  }
  /** Sign-in with the authenticator code: as login, or INVALID_VERIFICATION_CODE. */
  twoFactorLogin(ctx: RpcContext, body: TwoFactorLoginBody): Promise<LoginReply> {
    return this.call(AUTH_PATTERNS.twoFactorLogin, ctx, body);
  }
  /** Sign-in with a backup code: as login (maybe with warningMessage), or INVALID_BACKUP_CODE. */
  backupCodeLogin(ctx: RpcContext, body: BackupLoginBody): Promise<LoginReply> {
    return this.call(AUTH_PATTERNS.backupCodeLogin, ctx, body);
  }
  twoFactorEnable(ctx: RpcContext, body: TwoFactorEnableBody): Promise<TwoFactorEnableResponse> {
    return this.call(AUTH_PATTERNS.twoFactorEnable, ctx, body);
  }
  twoFactorVerify(ctx: RpcContext, body: TwoFactorVerifyBody): Promise<BackupCodesResponse> {
    return this.call(AUTH_PATTERNS.twoFactorVerify, ctx, body);
  }
  twoFactorDisable(ctx: RpcContext, body: TwoFactorProofBody): Promise<null> {
    return this.call(AUTH_PATTERNS.twoFactorDisable, ctx, body);
  }
  backupCodesInfo(ctx: RpcContext): Promise<BackupCodesInfoResponse> {
    return this.call(AUTH_PATTERNS.backupCodesInfo, ctx, undefined);
  }
  backupCodesRegenerate(ctx: RpcContext, body: TwoFactorProofBody): Promise<BackupCodesResponse> {
    return this.call(AUTH_PATTERNS.backupCodesRegenerate, ctx, body);
  }
  getSettings(ctx: RpcContext): Promise<AccountSettings> {
    return this.call(AUTH_PATTERNS.getSettings, ctx, undefined);
  }
  updateSettings(ctx: RpcContext, body: AccountSettings): Promise<AccountSettings> {
    return this.call(AUTH_PATTERNS.updateSettings, ctx, body);
  }
  health(ctx: RpcContext, timeoutMs: number): Promise<HealthReply> {
    return this.call(AUTH_PATTERNS.health, ctx, undefined, timeoutMs);
  }
}
