import type { PipeTransform } from '@nestjs/common';
import { ErrorCode, parseFirst, VaultError } from '@vault/contracts';
import type { z } from 'zod';

export const NOT_AN_OBJECT_MESSAGE = 'Request body must be a JSON object';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a body (or the route params) with a contract schema and answers 400 with the
 * first failing rule's message (docs/api.md "Conventions"). The handler receives the
 * schema's output, so transforms (trimmed strings, lower-cased e-mail) apply.
 */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  /** Public: the OpenAPI document reads a route's request schemas from its pipes. */
  constructor(readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    if (!isObject(value)) throw new VaultError(ErrorCode.VALIDATION_FAILED, NOT_AN_OBJECT_MESSAGE);
    // Own enumerable fields only (route params come as a class instance, not a literal).
    const result = parseFirst(this.schema, { ...value });
    if (!result.ok) throw new VaultError(ErrorCode.VALIDATION_FAILED, result.message);
    return result.data;
  }
}

export const zodPipe = <S extends z.ZodType>(schema: S): ZodPipe<S> => new ZodPipe(schema);
