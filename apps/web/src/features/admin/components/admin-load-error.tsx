import { isApiError, messageOf } from '../../../lib/api-client';
import { RetryBanner } from '../../../components/retry-banner';

export const ADMIN_LOAD_MESSAGES = {
  failed: 'Failed to load admin data',
  api: (status: number) => `Admin API Error: ${status}`,
} as const;

/** What a failed admin call says (spec section 8 "Admin dashboard"): the status when there is one. */
export function adminErrorText(error: unknown): string {
  return isApiError(error) && error.status > 0
    ? ADMIN_LOAD_MESSAGES.api(error.status)
    : ADMIN_LOAD_MESSAGES.failed;
}

/** A failed action: the spec's text (`fallback`), then the server's reason when it gave one. */
export function actionFailureText(error: unknown, fallback: string): string {
  const message = messageOf(error, fallback);
  return message === fallback ? fallback : `${fallback}: ${message}`;
}

/** A failed admin load: 'Failed to load admin data', the API status, and Retry. */
export function AdminLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const text = adminErrorText(error);
  return (
    <RetryBanner title={ADMIN_LOAD_MESSAGES.failed} onRetry={onRetry}>
      {text === ADMIN_LOAD_MESSAGES.failed ? null : text}
    </RetryBanner>
  );
}
