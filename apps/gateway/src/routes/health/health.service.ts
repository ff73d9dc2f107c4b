import { Inject, Injectable } from '@nestjs/common';
import type { RpcContext } from '@vault/contracts';
import { checkHealth } from '@vault/server-kit';
import type Redis from 'ioredis';
import { AuthRpcClient } from '../../proxy/auth-rpc.client';
import { NotesRpcClient } from '../../proxy/notes-rpc.client';
import { REDIS } from '../../redis/redis.token';
import type { HealthResponse } from './health.schema';

/** Each dependency must answer within this time to count as up. */
export const HEALTH_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly auth: AuthRpcClient,
    private readonly notes: NotesRpcClient,
  ) {}

  /** Redis answers PING; each service answers its health RPC with status ok. */
  async check(ctx: RpcContext): Promise<HealthResponse> {
    const report = await checkHealth(
      'gateway',
      {
        redis: () => this.redis.ping(),
        auth: async () => {
          const reply = await this.auth.health(ctx, HEALTH_TIMEOUT_MS);
          if (reply?.status !== 'ok') throw new Error('auth reports degraded');
        },
        notes: async () => {
          const reply = await this.notes.health(ctx, HEALTH_TIMEOUT_MS);
          if (reply?.status !== 'ok') throw new Error('notes reports degraded');
        },
      },
      HEALTH_TIMEOUT_MS,
    );
    return { status: report.status, services: { gateway: 'ok', ...report.checks } };
  }
}
