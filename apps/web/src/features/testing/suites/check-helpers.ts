import type { z } from 'zod';
import { isAbortError, isApiError } from '../../../lib/api-client';
import type { CheckOutcome } from '../model/suite';

/** Shared by the api, e2e and security suites: outcomes, and what an API failure was. */
export const passed = (detail: string, metrics?: Record<string, number>): CheckOutcome =>
  metrics ? { status: 'passed', detail, metrics } : { status: 'passed', detail };
export const failed = (detail: string): CheckOutcome => ({ status: 'failed', detail });
export const warning = (detail: string): CheckOutcome => ({ status: 'warning', detail });

/** An aborted call (Stop): the runner's cancel, not a failure. */
export const isAbort = isAbortError;

/** One line about a failed call: "GET /notes/counts answered 503 (Service unavailable)". */
export function describeFailure(what: string, error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 0) return `${what}: the server could not be reached (network error)`;
    const code = error.code ? `, ${error.code}` : '';
    return `${what} answered ${error.status} (${error.message}${code})`;
  }
  return `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** The status a call answered: 2xx as `ok`, an API error's status, 0 for a network failure. */
export async function statusOf(call: () => Promise<unknown>): Promise<{ status: number; error?: unknown }> {
  try {
    await call();
    return { status: 200 };
  } catch (error) {
    if (isAbort(error)) throw error;
    return { status: isApiError(error) ? error.status : 0, error };
  }
}

/** The first schema problem, worded for a person ("user.email: expected string"). */
export function schemaProblem(schema: z.ZodType, data: unknown): string | null {
  const result = schema.safeParse(data);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'does not match';
}

/** Stops a check between steps when Stop was pressed. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new DOMException('Stopped', 'AbortError');
}
