import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { FILES_REDIS } from './connections';

/** Liveness probes of the service's stores. */
@Injectable()
export class HealthRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(FILES_REDIS) private readonly redis: Redis,
  ) {}

  async pingDatabase(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  async pingRedis(): Promise<void> {
    await this.redis.ping();
  }
}
