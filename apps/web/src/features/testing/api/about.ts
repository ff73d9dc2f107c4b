import type { ApiClient } from '../../../lib/api-client';
import { aboutAnswerSchema } from '../suites/api';

/** The build the server runs (CI/CD Status): "unknown" for what it does not say. */
export interface About {
  version: string;
  commit: string;
  builtAt: string;
  environment: string;
}

export const UNKNOWN = 'unknown';
export const UNKNOWN_ABOUT: About = {
  version: UNKNOWN,
  commit: UNKNOWN,
  builtAt: UNKNOWN,
  environment: UNKNOWN,
};

/** GET /api/about, checked against the API suite's schema; an answer that does not match is unknown. */
export async function getAbout(api: ApiClient, signal?: AbortSignal): Promise<About> {
  const parsed = aboutAnswerSchema.safeParse(await api.get<unknown>('/about', { signal }));
  if (!parsed.success) return UNKNOWN_ABOUT;
  const { version, commit, builtAt, environment } = parsed.data;
  return {
    version: version || UNKNOWN,
    commit: commit || UNKNOWN,
    builtAt: builtAt || UNKNOWN,
    environment: environment || UNKNOWN,
  };
}
