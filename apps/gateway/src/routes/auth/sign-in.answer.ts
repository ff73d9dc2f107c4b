import { authResponseSchema, requires2faResponseSchema } from '@vault/contracts';
import type { ApiAnswer } from '../../openapi/api-doc';

/** The answer of a sign-in (login, emergency verification): signed in, or a second factor is needed. */
export const SIGN_IN_ANSWER: ApiAnswer = {
  description: 'Signed in (refresh cookie set), or a second factor is needed (no token, no cookie)',
  schema: [authResponseSchema, requires2faResponseSchema],
  cookie: 'set',
};
