import { Injectable } from '@nestjs/common';
import type { HealthReply } from '@vault/contracts';
import { checkHealth } from '@vault/server-kit';
import { HealthRepository } from '../repositories/health.repository';
import { QueuesRepository } from '../repositories/queues.repository';
import { StorageRepository } from '../repositories/storage.repository';

@Injectable()
export class HealthService {
  constructor(
    private readonly stores: HealthRepository,
    private readonly queues: QueuesRepository,
    private readonly storage: StorageRepository,
  ) {}

  check(): Promise<HealthReply> {
    return checkHealth('files', {
      database: () => this.stores.pingDatabase(),
      redis: () => this.stores.pingRedis(),
      queue: () => this.queues.ping(),
      storage: () => this.storage.ping(),
    });
  }
}
