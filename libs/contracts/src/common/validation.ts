import { z } from 'zod';

/** Spec section 5: the first message of a failed form. */
export const FILL_ALL_FIELDS = 'Please fill in all fields';

/** A required, non-blank string whose absence reads as the spec's "fill in all fields". */
export const requiredString = (max: number, tooLong: string) =>
  z.string({ error: FILL_ALL_FIELDS }).trim().min(1, FILL_ALL_FIELDS).max(max, tooLong);

/** Strict object: unknown or extra fields are a 400 (api-contract.md "Conventions"). */
export function strictBody<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined,
  });
}

export type ParseResult<T> =
  { ok: true; data: T } | { ok: false; message: string; path: (string | number)[] };

/**
 * Parses with a schema and reports only the first failing rule, which is what the
 * API answers (api-contract.md: "400 with the first failing rule's message").
 */
export function parseFirst<S extends z.ZodType>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  return {
    ok: false,
    message: issue?.message ?? 'Invalid request',
    path: (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p)),
  };
}
