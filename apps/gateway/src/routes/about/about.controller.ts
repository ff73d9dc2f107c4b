import { Controller, Inject } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../../config/gateway.config';
import { Public } from '../../auth/auth.decorators';
import { Route } from '../../openapi/api-doc';
import { aboutResponseSchema, type AboutResponse } from './about.schema';
import { buildInfo } from './build-info';

/** GET /api/about: the build that answers (public: it says nothing about any account). */
@Controller('about')
@Public()
export class AboutController {
  private readonly info: AboutResponse;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.info = buildInfo(config);
  }

  @Route('get', undefined, {
    summary:
      'The build that answers: package version, commit (GIT_COMMIT / VAULT_COMMIT, else the checkout), ' +
      'build time (VAULT_BUILT_AT) and NODE_ENV; null when unknown. An addition to the original contract',
    success: [{ description: 'Build information', schema: aboutResponseSchema }],
  })
  about(): AboutResponse {
    return this.info;
  }
}
