import { z } from 'zod';

/** Spec section 5: the first message of a failed form. */
export const FILL_ALL_FIELDS = 'Please fill in all fields';

/**
 * What no text field of the API takes: control characters (Unicode category Cc: C0, DEL and
 * C1, NUL among them, which PostgreSQL cannot store in text at all) and lone UTF-16 surrogates
 * (no UTF-8 exists for them; they would be stored as U+FFFD, not as sent).
 */
export const FORBIDDEN_TEXT_RE = /[\p{Cc}\p{Cs}]/u;

/** True when a text holds a character of FORBIDDEN_TEXT_RE. */
export const hasForbiddenText = (value: string): boolean => FORBIDDEN_TEXT_RE.test(value);

/** The answer when a field without a message of its own holds such a character. */
export const FORBIDDEN_TEXT_MESSAGE = 'Text must not contain control characters';

/**
 * A plain-text field (an identifier, an address, a question, a code): a string that refuses
 * FORBIDDEN_TEXT_RE with the field's own message. Chain trims and lengths after it.
 */
export const plainText = (invalid: string, required: string = invalid) =>
  z.string({ error: required }).refine((v) => !hasForbiddenText(v), invalid);

/**
 * A required, non-blank plain-text field whose absence reads as the spec's "fill in all
 * fields"; `invalid` answers a control character, `tooLong` a text over `max`.
 */
export const requiredString = (max: number, tooLong: string, invalid: string) =>
  plainText(invalid, FILL_ALL_FIELDS).trim().min(1, FILL_ALL_FIELDS).max(max, tooLong);

/** Strict object: unknown or extra fields are a 400 (docs/api.md "Conventions"). */
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
 * API answers (docs/api.md "Conventions": first failing rule).
 *
 * Every request body, query and route parameter of the gateway and of the services' RPC
 * handlers passes here, so this is also the backstop for text: whatever a schema lets
 * through (its output, which is what handlers use) cannot carry NUL or a lone surrogate to the
 * database (a 400 naming the field, never PostgreSQL's 500).
 */
export function parseFirst<S extends z.ZodType>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    return {
      ok: false,
      message: issue?.message ?? 'Invalid request',
      path: (issue?.path ?? []).map((p) => (typeof p === 'symbol' ? String(p) : p)),
    };
  }
  const unsafe = findUnstorableText(result.data);
  if (unsafe) return { ok: false, message: FORBIDDEN_TEXT_MESSAGE, path: unsafe };
  return { ok: true, data: result.data };
}

/** Text PostgreSQL cannot store as sent: NUL, or a lone surrogate. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE_TEXT_RE = /[\u0000\p{Cs}]/u;
/** JSON from a 1 MiB body nests far less; deeper input is refused, not walked. */
const MAX_DEPTH = 64;

/**
 * The path of the first string or key (at any depth) holding unstorable text, if any. The path
 * is built only on the way back from a find, so a clean input (every request) builds none.
 */
function findUnstorableText(value: unknown, depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return UNSTORABLE_TEXT_RE.test(value) ? [] : null;
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_DEPTH) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], depth + 1);
      if (found) return [i, ...found];
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    if (UNSTORABLE_TEXT_RE.test(key)) return [key];
    const found = findUnstorableText(child, depth + 1);
    if (found) return [key, ...found];
  }
  return null;
}
