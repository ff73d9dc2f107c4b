import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  legacyKeyIdParamSchema,
  recoveryEmailCodeBodySchema,
  recoveryGetQuestionsBodySchema,
  recoveryResetBodySchema,
  recoverySetupKeyBodySchema,
  recoverySetupQuestionsBodySchema,
  recoveryVerifyEmailBodySchema,
  recoveryVerifyKeyBodySchema,
  recoveryVerifyQuestionsBodySchema,
  type AuthResponse,
  type LegacyKeysResponse,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryVerifiedResponse,
  type SecurityQuestionsResponse,
  type WithRefresh,
} from '@vault/contracts';
import { readAuth, readBody, readContext } from '@vault/server-kit';
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
    return this.recovery.emailCode(readBody(recoveryEmailCodeBodySchema, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.recoveryVerifyEmail)
  verifyEmail(@Payload() payload: unknown): Promise<RecoveryVerifiedResponse> {
    return this.recovery.verifyEmail(readBody(recoveryVerifyEmailBodySchema, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.recoverySetupKey)
  async setupKey(@Payload() payload: unknown): Promise<null> {
    const ctx = readContext(payload);
    const auth = await this.sessions.assertAlive(readAuth(ctx));
    await this.recovery.setupKey(auth, readBody(recoverySetupKeyBodySchema, payload), ctx);
    return null;
  }

  @MessagePattern(AUTH_PATTERNS.recoveryVerifyKey)
  verifyKey(@Payload() payload: unknown): Promise<RecoveryKeyVerifiedResponse> {
    return this.recovery.verifyKey(readBody(recoveryVerifyKeyBodySchema, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.recoverySetupQuestions)
  async setupQuestions(@Payload() payload: unknown): Promise<null> {
    const ctx = readContext(payload);
    const auth = await this.sessions.assertAlive(readAuth(ctx));
    await this.recovery.setupQuestions(auth, readBody(recoverySetupQuestionsBodySchema, payload), ctx);
    return null;
  }

  @MessagePattern(AUTH_PATTERNS.securityQuestions)
  async securityQuestions(@Payload() payload: unknown): Promise<SecurityQuestionsResponse> {
    const auth = await this.sessions.assertAlive(readAuth(readContext(payload)));
    return this.recovery.securityQuestions(auth);
  }

  @MessagePattern(AUTH_PATTERNS.recoveryGetQuestions)
  getQuestions(@Payload() payload: unknown): Promise<RecoveryQuestionsResponse> {
    readContext(payload);
    return this.recovery.getQuestions(readBody(recoveryGetQuestionsBodySchema, payload));
  }

  @MessagePattern(AUTH_PATTERNS.recoveryVerifyQuestions)
  verifyQuestions(@Payload() payload: unknown): Promise<RecoveryVerifiedResponse> {
    return this.recovery.verifyQuestions(
      readBody(recoveryVerifyQuestionsBodySchema, payload),
      readContext(payload),
    );
  }

  @MessagePattern(AUTH_PATTERNS.recoveryReset)
  reset(@Payload() payload: unknown): Promise<WithRefresh<AuthResponse>> {
    return this.recovery.reset(readBody(recoveryResetBodySchema, payload), readContext(payload));
  }

  @MessagePattern(AUTH_PATTERNS.listLegacyKeys)
  async listLegacyKeys(@Payload() payload: unknown): Promise<LegacyKeysResponse> {
    const auth = await this.sessions.assertAlive(readAuth(readContext(payload)));
    return this.recovery.listLegacyKeys(auth);
  }

  @MessagePattern(AUTH_PATTERNS.deleteLegacyKey)
  async deleteLegacyKey(@Payload() payload: unknown): Promise<null> {
    const ctx = readContext(payload);
    const auth = await this.sessions.assertAlive(readAuth(ctx));
    await this.recovery.deleteLegacyKey(auth, readBody(legacyKeyIdParamSchema, payload).id, ctx);
    return null;
  }
}
