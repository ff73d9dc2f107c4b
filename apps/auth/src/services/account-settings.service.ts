import { Injectable } from '@nestjs/common';
import { ErrorCode, VaultError, type AccountSettings, type RpcAuth, type RpcContext } from '@vault/contracts';
import { AccountSettingsRepository } from '../repositories/account-settings.repository';
import { SecurityEventsService } from './security-events.service';

/** The signed-in user's settings; a change is a security event (`settings_changed`). */
@Injectable()
export class AccountSettingsService {
  constructor(
    private readonly settings: AccountSettingsRepository,
    private readonly events: SecurityEventsService,
  ) {}

  async get(auth: RpcAuth): Promise<AccountSettings> {
    const found = await this.settings.find(auth.userId);
    if (!found) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    return found;
  }

  async update(auth: RpcAuth, next: AccountSettings, ctx: RpcContext): Promise<AccountSettings> {
    const event = this.events.build('settings_changed', auth.userId, ctx, {
      sessionId: auth.sessionId,
      malwareFingerprintCheck: next.malwareFingerprintCheck,
    });
    if ((await this.settings.update(auth.userId, next, event)) === null) {
      throw new VaultError(ErrorCode.UNAUTHENTICATED);
    }
    return { malwareFingerprintCheck: next.malwareFingerprintCheck };
  }
}
