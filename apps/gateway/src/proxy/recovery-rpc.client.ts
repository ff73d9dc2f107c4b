import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  type AuthResponse,
  type LegacyKeyIdParam,
  type LegacyKeysResponse,
  type RecoveryEmailCodeBody,
  type RecoveryGetQuestionsBody,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryResetBody,
  type RecoverySetupKeyBody,
  type RecoverySetupQuestionsBody,
  type RecoveryVerifiedResponse,
  type RecoveryVerifyEmailBody,
  type RecoveryVerifyKeyBody,
  type RecoveryVerifyQuestionsBody,
  type RpcContext,
  type SecurityQuestionsResponse,
  type WithRefresh,
} from '@vault/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { AUTH_RPC } from './auth-rpc.client';
import { RpcServiceClient } from './rpc-service.client';

/**
 * The auth service's recovery patterns, typed. Same connection as AuthRpcClient (AUTH_RPC);
 * a class of its own so recovery does not grow the sign-in client.
 */
@Injectable()
export class RecoveryRpcClient extends RpcServiceClient {
  constructor(@Inject(AUTH_RPC) client: ClientProxy, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super(client, config);
  }

  /** The connection is AuthRpcClient's: it closes it once. */
  override async onApplicationShutdown(): Promise<void> {}

  emailCode(ctx: RpcContext, body: RecoveryEmailCodeBody): Promise<RecoveryMessageResponse> {
    return this.call(AUTH_PATTERNS.recoveryEmailCode, ctx, body);
  }
  verifyEmail(ctx: RpcContext, body: RecoveryVerifyEmailBody): Promise<RecoveryVerifiedResponse> {
    return this.call(AUTH_PATTERNS.recoveryVerifyEmail, ctx, body);
  }
  setupKey(ctx: RpcContext, body: RecoverySetupKeyBody): Promise<null> {
    return this.call(AUTH_PATTERNS.recoverySetupKey, ctx, body);
  }
  verifyKey(ctx: RpcContext, body: RecoveryVerifyKeyBody): Promise<RecoveryKeyVerifiedResponse> {
    return this.call(AUTH_PATTERNS.recoveryVerifyKey, ctx, body);
  }
  setupQuestions(ctx: RpcContext, body: RecoverySetupQuestionsBody): Promise<null> {
    return this.call(AUTH_PATTERNS.recoverySetupQuestions, ctx, body);
  }
  securityQuestions(ctx: RpcContext): Promise<SecurityQuestionsResponse> {
    return this.call(AUTH_PATTERNS.securityQuestions, ctx, undefined);
  }
  getQuestions(ctx: RpcContext, body: RecoveryGetQuestionsBody): Promise<RecoveryQuestionsResponse> {
    return this.call(AUTH_PATTERNS.recoveryGetQuestions, ctx, body);
  }
  verifyQuestions(ctx: RpcContext, body: RecoveryVerifyQuestionsBody): Promise<RecoveryVerifiedResponse> {
    return this.call(AUTH_PATTERNS.recoveryVerifyQuestions, ctx, body);
  }
  reset(ctx: RpcContext, body: RecoveryResetBody): Promise<WithRefresh<AuthResponse>> {
    return this.call(AUTH_PATTERNS.recoveryReset, ctx, body);
  }
  listLegacyKeys(ctx: RpcContext): Promise<LegacyKeysResponse> {
    return this.call(AUTH_PATTERNS.listLegacyKeys, ctx, undefined);
  }
  deleteLegacyKey(ctx: RpcContext, body: LegacyKeyIdParam): Promise<null> {
    return this.call(AUTH_PATTERNS.deleteLegacyKey, ctx, body);
  }
}
