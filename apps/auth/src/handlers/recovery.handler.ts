import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  type AuthResponse,
  type LegacyKeysResponse,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryVerifiedResponse,
  type SecurityQuestionsResponse,
  type WithRefresh,
} from '@vault/contracts';
import { readContext, readRpcBody } from '@vault/server-kit';
import { RecoveryService } from '../services/recovery.service';
import { SessionService } from '../services/session.service';

/** Recovery, security questions and legacy keys. Handlers only translate. */
@Controller()
export class RecoveryHandler {
  constructor(
    private readonly recovery: RecoveryService,
    private readonly sessions: SessionService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.recoveryEmailCode)
  emailCode(@Payload() payload: unknown): Promise<RecoveryMessageResponse> {
    return this.recovery.emailCode(
      readRpcBody(AUTH_PATTERNS.recoveryEmailCode, payload),
      readContext(payload),
    );
  }

  @MessagePattern(AUTH_PATTERNS.recoveryVerifyEmail)
  verifyEmail(@Payload() payload: unknown): Promise<RecoveryVerifiedResponse> {
    return this.recovery.verifyEmail(
      readRpcBody(AUTH_PATTERNS.recoveryVerifyEmail, payload),
      readContext(payload),
    );
  }

  @MessagePattern(AUTH_PATTERNS.recoverySetupKey)
  async setupKey(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    await this.recovery.setupKey(auth, readRpcBody(AUTH_PATTERNS.recoverySetupKey, payload), ctx);
    return null;
  }

  @MessagePattern(AUTH_PATTERNS.recoveryVerifyKey)
  verifyKey(@Payload() payload: unknown): Promise<RecoveryKeyVerifiedResponse> {
    return this.recovery.verifyKey(
      readRpcBody(AUTH_PATTERNS.recoveryVerifyKey, payload),
      readContext(payload),
    );
  }

  @MessagePattern(AUTH_PATTERNS.recoverySetupQuestions)
  async setupQuestions(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    await this.recovery.setupQuestions(auth, readRpcBody(AUTH_PATTERNS.recoverySetupQuestions, payload), ctx);
    return null;
  }

  @MessagePattern(AUTH_PATTERNS.securityQuestions)
  async securityQuestions(@Payload() payload: unknown): Promise<SecurityQuestionsResponse> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.recovery.securityQuestions(auth);
  }

  @MessagePattern(AUTH_PATTERNS.recoveryGetQuestions)
  getQuestions(@Payload() payload: unknown): Promise<RecoveryQuestionsResponse> {
    readContext(payload);
    return this.recovery.getQuestions(readRpcBody(AUTH_PATTERNS.recoveryGetQuestions, payload));
  }

  @MessagePattern(AUTH_PATTERNS.recoveryVerifyQuestions)
  verifyQuestions(@Payload() payload: unknown): Promise<RecoveryVerifiedResponse> {
    return this.recovery.verifyQuestions(
      readRpcBody(AUTH_PATTERNS.recoveryVerifyQuestions, payload),
      readContext(payload),
    );
  }

  @MessagePattern(AUTH_PATTERNS.recoveryReset)
  reset(@Payload() payload: unknown): Promise<WithRefresh<AuthResponse>> {
    return this.recovery.reset(readRpcBody(AUTH_PATTERNS.recoveryReset, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.listLegacyKeys)
  async listLegacyKeys(@Payload() payload: unknown): Promise<LegacyKeysResponse> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.recovery.listLegacyKeys(auth);
  }

  @MessagePattern(AUTH_PATTERNS.deleteLegacyKey)
  async deleteLegacyKey(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    await this.recovery.deleteLegacyKey(auth, readRpcBody(AUTH_PATTERNS.deleteLegacyKey, payload).id, ctx);
    return null;
  }
}
