import { parseResponse } from '../../../lib/parse-response';
import type { TestingContext } from '../model/context';
import type { CheckOutcome } from '../model/suite';
import { describeFailure, failed, isAbort, statusOf } from './check-helpers';
import type { z } from 'zod';

/** A step of a round trip that failed: its one-line detail becomes the check's. */
export class StepFailed extends Error {}

/** Runs one step; a failure (not Stop) becomes StepFailed naming the step. */
export async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAbort(error) || error instanceof StepFailed) throw error;
    throw new StepFailed(describeFailure(what, error));
  }
}

/** A GET parsed with its contract schema, as a step. */
export function getParsed<S extends z.ZodType>(
  ctx: TestingContext,
  path: string,
  schema: S,
): Promise<z.output<S>> {
  return step(`GET /api${path}`, async () =>
    parseResponse(schema, await ctx.api.get<unknown>(path, { signal: ctx.signal })),
  );
}

/** A random marker that must never appear in what the server stores. */
export const canary = (): string => `vault-canary-${crypto.randomUUID()}`;

/** Whether `marker` appears anywhere in `bytes` (as UTF-8). */
export function containsBytes(bytes: Uint8Array, marker: string): boolean {
  const needle = new TextEncoder().encode(marker);
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Whether an id is gone: `probe` answers 404. */
export async function expectGone(what: string, probe: () => Promise<unknown>): Promise<void> {
  const { status } = await statusOf(probe);
  if (status !== 404)
    throw new StepFailed(
      `${what} answered ${status} after the permanent delete, not 404: something was left behind`,
    );
}

/**
 * Deletes a temporary item for good, ignoring failures, WITHOUT the run's signal: it runs even
 * after Stop, so nothing the check created stays behind.
 */
export async function removeForGood(ctx: TestingContext, kind: 'notes' | 'files', id: string): Promise<void> {
  await ctx.api.delete(`/${kind}/${id}`).catch(() => undefined);
  await ctx.api.delete(`/${kind}/${id}/permanent`).catch(() => undefined);
}

/** The outcome of a round trip's body: StepFailed as failed, Stop passed through. */
export async function roundTrip(body: () => Promise<CheckOutcome>): Promise<CheckOutcome> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof StepFailed) return failed(error.message);
    throw error;
  }
}

/** What a round trip created, for its clean-up: the id once known, `gone` once checked deleted. */
export interface TemporaryItem {
  id: string | null;
  gone: boolean;
}

/**
 * Runs a round trip on a temporary note or file with the unlocked vault key, and deletes the item
 * for good afterwards unless the trip already saw it gone (after a failure or Stop too).
 */
export async function withTemporaryItem(
  ctx: TestingContext,
  kind: 'notes' | 'files',
  body: (key: CryptoKey, made: TemporaryItem) => Promise<CheckOutcome>,
): Promise<CheckOutcome> {
  const key = ctx.vaultKey;
  if (!key) return failed('The vault is locked: unlock it and run again');
  const made: TemporaryItem = { id: null, gone: false };
  try {
    return await roundTrip(() => body(key, made));
  } finally {
    if (made.id && !made.gone) await removeForGood(ctx, kind, made.id);
  }
}
