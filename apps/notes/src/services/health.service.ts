import { Injectable } from '@nestjs/common';
import type { HealthReply } from '@vault/contracts';
import { checkHealth } from '@vault/server-kit';
import { HealthRepository } from '../repositories/health.repository';

@Injectable()
export class HealthService {
  constructor(private readonly stores: HealthRepository) {}

  check(): Promise<HealthReply> {
    return checkHealth('notes', {
      database: () => this.stores.pingDatabase(),
      redis: () => this.stores.pingRedis(),
    });
  }
}
