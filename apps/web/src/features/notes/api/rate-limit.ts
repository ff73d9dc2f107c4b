import { isApiError } from '../../../lib/api-client';

export interface RateLimitOptions {
  /** Attempts in all (the first call included). */
  attempts?: number;
  /** Longest wait accepted, in seconds; a longer Retry-After is not waited for. */
  maxWaitSeconds?: number;
  /** Told before each wait (e.g. to say so in a progress line). */
  onWait?: (seconds: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `call`, and when the gateway answers 429 (its per-user request budget, with `retryAfter`),
 * waits as told and tries again. Only for calls that are safe to repeat: page reads, and creates
 * with a client-made id (the API treats the same create twice as one).
 */
export async function withRateLimitRetry<T>(
  call: () => Promise<T>,
  options: RateLimitOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 6;
  const maxWait = options.maxWaitSeconds ?? 90;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isApiError(error, 429) || attempt >= attempts) throw error;
      const seconds = Math.max(1, Math.ceil(error.retryAfter ?? 5));
      if (seconds > maxWait) throw error;
      options.onWait?.(seconds);
      await sleep(seconds * 1000);
    }
  }
}
