import { Controller, Get, Res } from '@nestjs/common';
import type { RpcContext } from '@vault/contracts';
import type { FastifyReply } from 'fastify';
import { Public } from '../../auth/auth.decorators';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RateLimit } from '../../security/rate-limit.decorator';
import type { HealthResponse, LiveResponse } from './health.schema';
import { HealthService } from './health.service';

@Controller('health')
@Public()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Readiness: 200 when every dependency answers, else 503 naming the ones that do not. */
  @Get()
  async check(
    @Ctx() ctx: RpcContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HealthResponse> {
    const report = await this.health.check(ctx);
    reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }

  /** Liveness: the process answers. No dependency is asked and no limit is counted. */
  @Get('live')
  @RateLimit('none')
  live(): LiveResponse {
    return { status: 'ok' };
  }
}
