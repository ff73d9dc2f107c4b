import { Controller, Res } from '@nestjs/common';
import type { RpcContext } from '@vault/contracts';
import type { FastifyReply } from 'fastify';
import { Public } from '../../auth/auth.decorators';
import { Route } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import {
  healthResponseSchema,
  liveResponseSchema,
  type HealthResponse,
  type LiveResponse,
} from './health.schema';
import { HealthService } from './health.service';

@Controller('health')
@Public()
export class HealthController {
  constructor(private readonly service: HealthService) {}

  /** Readiness: 200 when every dependency answers, else 503 naming the ones that do not. */
  @Route('get', undefined, {
    summary: 'Readiness: every dependency answers within 2 s',
    success: [
      { description: 'All services ok', schema: healthResponseSchema },
      {
        status: 503,
        description: 'Degraded: the services that did not answer are "down"',
        schema: healthResponseSchema,
      },
    ],
  })
  async health(
    @Ctx() ctx: RpcContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HealthResponse> {
    const report = await this.service.check(ctx);
    reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }

  /** Liveness: the process answers. No dependency is asked and no limit is counted. */
  @Route('get', 'live', {
    limit: 'none',
    summary: 'Liveness: the gateway process answers',
    success: [{ description: 'Alive', schema: liveResponseSchema }],
  })
  live(): LiveResponse {
    return { status: 'ok' };
  }
}
