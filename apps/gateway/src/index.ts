/** What other tooling may import from the gateway (scripts, docs generators, tests). */
export { AppModule } from './app.module';
export { createGatewayApp, type CreateGatewayOptions } from './bootstrap';
export { gatewayEnvSchema, loadGatewayConfig, type GatewayConfig } from './config/gateway.config';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/openapi.document';
export { Route, type RouteOptions } from './openapi/api-doc';
export { Public, OptionalAuth } from './auth/auth.decorators';
export { CurrentUser } from './auth/current-user.decorator';
export { Ctx } from './proxy/rpc-context.decorator';
export { RateLimit } from './security/rate-limit.decorator';
export { zodPipe } from './validation/zod.pipe';
