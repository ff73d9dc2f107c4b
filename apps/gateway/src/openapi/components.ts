import * as contracts from '@vault/contracts';
import {
  authKeySchema,
  EMAIL_RE,
  ErrorCode,
  fileMetadataSchema,
  kdfParamsSchema,
  PHONE_RE,
  saltSchema,
  sealedKey,
  SIGNUP_LIMITS,
  signupBodySchema,
  USERNAME_RE,
} from '@vault/contracts';
import { z } from 'zod';
import * as cloudinaryUpload from '../routes/files/cloudinary-multipart.upload';
import * as about from '../routes/about/about.schema';
import * as health from '../routes/health/health.schema';
import type { RawBody } from './api-doc';

export type JsonSchema = Record<string, unknown>;

/**
 * Component names come from the exported schema's name: `preloginBodySchema` is `PreloginBody`.
 * A route may answer with any schema exported from @vault/contracts or the gateway modules below;
 * one without a name fails the document's build (and so its unit test).
 */
const NAMED_MODULES: Record<string, unknown>[] = [contracts, health, about, cloudinaryUpload];
/** Names kept from before the document was generated (the schema's type is FileMetadataBody). */
const RENAMED: Record<string, string> = { fileMetadataSchema: 'FileMetadataBody' };

const SCHEMA_NAMES = new Map<unknown, string>();
for (const module of NAMED_MODULES) {
  for (const [exported, value] of Object.entries(module)) {
    if (!(value instanceof z.ZodType) || !exported.endsWith('Schema') || SCHEMA_NAMES.has(value)) continue;
    const name = exported.slice(0, -'Schema'.length);
    SCHEMA_NAMES.set(value, RENAMED[exported] ?? name.charAt(0).toUpperCase() + name.slice(1));
  }
}

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/**
 * The sign-up schema checks its fields in the spec's order inside one refinement, which JSON
 * Schema cannot see; the documented properties are the contract's own field schemas.
 */
function signupSchema(): JsonSchema {
  const schema = jsonSchema(signupBodySchema, 'input');
  const props = schema.properties as Record<string, JsonSchema>;
  props.username = {
    ...props.username,
    minLength: SIGNUP_LIMITS.usernameMin,
    maxLength: SIGNUP_LIMITS.usernameMax,
    pattern: USERNAME_RE.source,
  };
  props.email = { ...props.email, pattern: EMAIL_RE.source, description: 'Stored lower-cased' };
  props.phoneNumber = { ...props.phoneNumber, pattern: PHONE_RE.source };
  props.authKey = jsonSchema(authKeySchema, 'input');
  props.salt = jsonSchema(saltSchema, 'input');
  props.kdfParams = jsonSchema(kdfParamsSchema, 'input');
  props.wrappedVaultKey = jsonSchema(sealedKey(), 'input');
  return schema;
}

/** Components whose JSON Schema is more than the zod schema shows. */
const OVERRIDES = new Map<z.ZodType, () => JsonSchema>([[signupBodySchema, signupSchema]]);

export const BINARY_SCHEMA: JsonSchema = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
  description: 'Encrypted bytes (the file as sealed on the client)',
};

/** The encrypted bytes of the blob PUT. */
export const BLOB_BYTES: RawBody = {
  component: 'BlobBytes',
  mediaType: 'application/octet-stream',
  schema: () => BINARY_SCHEMA,
};

/**
 * The multipart form of `POST /api/files/cloudinary/upload`: the metadata fields of the JSON
 * upload routes as text parts (numbers as decimal text), then `file`, last.
 */
export const CLOUDINARY_UPLOAD_FORM: RawBody = {
  component: 'CloudinaryUploadForm',
  mediaType: 'multipart/form-data',
  schema: () => {
    const metadata = jsonSchema(fileMetadataSchema, 'input');
    const props = metadata.properties as Record<string, JsonSchema>;
    return {
      ...metadata,
      properties: { ...props, file: { ...BINARY_SCHEMA, description: 'The encrypted bytes; the last part' } },
      required: [...((metadata.required as string[] | undefined) ?? []), 'file'],
    };
  },
};

const errorBodySchema: JsonSchema = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'Human-readable message (the spec’s text where it has one)' },
    code: { type: 'string', enum: Object.values(ErrorCode) },
    requestId: { type: 'string', description: 'Also sent as the x-request-id header' },
    retryAfter: { type: 'integer', description: 'Seconds to wait (423, 429)' },
    requiresEmergencyVerification: { type: 'boolean', description: 'Present on 418' },
  },
  required: ['error', 'code'],
  additionalProperties: true,
};

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The document's named schemas, added as the routes use them. */
export class Components {
  readonly schemas: Record<string, JsonSchema> = { ErrorBody: errorBodySchema };
  private readonly owners = new Map<string, unknown>();

  /** A reference to the component of a contract schema (bodies: its input side, answers: output). */
  schema(schema: z.ZodType, io: 'input' | 'output'): { $ref: string } {
    const name = SCHEMA_NAMES.get(schema);
    if (!name) throw new Error(`OpenAPI: a route uses a schema with no name (export it as <name>Schema)`);
    return this.add(name, schema, () => OVERRIDES.get(schema)?.() ?? jsonSchema(schema, io));
  }

  raw(body: RawBody): { $ref: string } {
    return this.add(body.component, body, body.schema);
  }

  private add(name: string, owner: unknown, build: () => JsonSchema): { $ref: string } {
    const known = this.owners.get(name);
    if (known === undefined) {
      this.owners.set(name, owner);
      this.schemas[name] = build();
    } else if (known !== owner) {
      throw new Error(`OpenAPI: two schemas are named ${name}`);
    }
    return ref(name);
  }
}
