import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS, type AccountSettings } from '@vault/contracts';
import { readRpcBody } from '@vault/server-kit';
import { AccountSettingsService } from '../services/account-settings.service';
import { SessionService } from '../services/session.service';

@Controller()
export class AccountSettingsHandler {
  constructor(
    private readonly settings: AccountSettingsService,
    private readonly sessions: SessionService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.getSettings)
  async get(@Payload() payload: unknown): Promise<AccountSettings> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.settings.get(auth);
  }

  @MessagePattern(AUTH_PATTERNS.updateSettings)
  async update(@Payload() payload: unknown): Promise<AccountSettings> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    return this.settings.update(auth, readRpcBody(AUTH_PATTERNS.updateSettings, payload), ctx);
  }
}
