import { securityQuestionsResponseSchema } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

/** GET /api/auth/security-questions → {questions: [3 × string]} or {questions: []} when none are set. */
export async function getSecurityQuestions(api: ApiClient): Promise<string[]> {
  return parseResponse(securityQuestionsResponseSchema, await api.get('/auth/security-questions')).questions;
}

/**
 * POST /api/auth/recovery/setup-questions → 204. The answers never leave the device: only
 * answersAuth (derived in the worker under `questionsSalt`) is sent.
 */
export async function setupSecurityQuestions(
  api: ApiClient,
  body: { questions: { question: string }[]; questionsSalt: string; answersAuth: string },
): Promise<void> {
  await api.post<void>('/auth/recovery/setup-questions', body);
}

/** POST /api/auth/recovery/setup-key → 204; replaces any earlier recovery key. */
export async function setupRecoveryKey(
  api: ApiClient,
  body: { authKey: string; recoveryAuth: string; recoveryWrappedVaultKey: string },
): Promise<void> {
  await api.post<void>('/auth/recovery/setup-key', body);
}

export const securityQuestionsQueryKey = 'settings/security-questions';

export function useSecurityQuestions() {
  const api = useApiClient();
  return useQuery({ queryKey: securityQuestionsQueryKey, queryFn: () => getSecurityQuestions(api) });
}
