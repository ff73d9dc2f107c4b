import type { INestApplication } from '@nestjs/common';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { DOCS_PATH } from '../security/security-headers';
import { buildOpenApiDocument } from './openapi.document';

export const OPENAPI_JSON_PATH = `${DOCS_PATH}/openapi.json`;

/** Swagger UI at /api/docs and the JSON at /api/docs/openapi.json (no YAML). */
export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument() as unknown as OpenAPIObject;
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Vault API',
    // No third-party requests from the docs page (the validator badge calls out by default).
    swaggerOptions: { validatorUrl: null, persistAuthorization: false },
  });
}
