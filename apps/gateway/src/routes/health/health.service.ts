import { Inject, Injectable } from '@nestjs/common';
import type { RpcContext } from '@vault/contracts';
import { checkHealth } from '@vault/server-kit';
import type Redis from 'ioredis';
import { FilesBlobProxy } from '../../proxy/files-blob.proxy';
import { RpcClient } from '../../proxy/rpc.client';
import { REDIS } from '../../redis/redis.token';
import type { HealthResponse } from './health.schema';

/** Each dependency must answer within this time to count as up. */
export const HEALTH_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly rpc: RpcClient,
    private readonly blobs: FilesBlobProxy,
  ) {}

  /**
   * Redis answers PING; each service answers its health RPC with status ok; for files, its
   * HTTP listener (the blob route) answers too.
   */
  async check(ctx: RpcContext): Promise<HealthResponse> {
    const report = await checkHealth(
      'gateway',
      {
        redis: () => this.redis.ping(),
        auth: async () => {
          const reply = await this.rpc.call('auth.health', ctx, undefined, HEALTH_TIMEOUT_MS);
          if (reply?.status !== 'ok') throw new Error('auth reports degraded');
        },
        notes: async () => {
          const reply = await this.rpc.call('notes.health', ctx, undefined, HEALTH_TIMEOUT_MS);
          if (reply?.status !== 'ok') throw new Error('notes reports degraded');
        },
        files: async () => {
          const [reply] = await Promise.all([
            this.rpc.call('files.health', ctx, undefined, HEALTH_TIMEOUT_MS),
            this.blobs.ping(HEALTH_TIMEOUT_MS),
          ]);
          if (reply?.status !== 'ok') throw new Error('files reports degraded');
        },
      },
      HEALTH_TIMEOUT_MS,
    );
    return { status: report.status, services: { gateway: 'ok', ...report.checks } };
  }
}
