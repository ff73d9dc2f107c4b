import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../../config/gateway.config';

/** Where the web app loads its runtime configuration from (a plain `<script src>` before the bundle). */
export const WEB_CONFIG_PATH = '/env-config.js';

/** What the web app may know about this deployment. Nothing secret ever goes in here. */
export interface WebRuntimeConfig {
  inactivityTimeoutMs: number;
  inactivityWarningMs: number;
}

export function webRuntimeConfig(config: GatewayConfig): WebRuntimeConfig {
  return {
    inactivityTimeoutMs: config.web.inactivityTimeoutMs,
    inactivityWarningMs: config.web.inactivityWarningMs,
  };
}

/**
 * `window.__VAULT_CONFIG__ = {...};` as JSON, escaped so that no value can end the script or
 * break out of a string: `<`, `>`, `&` and the JavaScript line separators become \u escapes.
 */
export function renderWebConfigScript(values: WebRuntimeConfig): string {
  const json = JSON.stringify(values).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `window.__VAULT_CONFIG__ = Object.freeze(${json});\n`;
}

/**
 * GET /env-config.js, outside the /api prefix (so one image serves every environment,
 * docs/architecture.md "Code conventions"). A plain Fastify route: public, not rate limited, never cached.
 */
@Injectable()
export class WebConfigRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    const body = renderWebConfigScript(webRuntimeConfig(this.config));
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get(WEB_CONFIG_PATH, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(body),
    );
  }
}
