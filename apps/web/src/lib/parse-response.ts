import type { z } from 'zod';
import { ApiError } from './api-error';

/** Checks an answer against its contract schema (libs/contracts); a mismatch is an error, never guessed at. */
export function parseResponse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new ApiError(502, 'Unexpected response from server');
  return result.data;
}
