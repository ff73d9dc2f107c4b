import type { CheckContext, CheckDefinition, CheckOutcome, SuiteDefinition, SuiteId } from '../model/suite';

/** A check for tests: `run` decides the outcome (the real ones measure). */
export function fakeCheck(
  id: string,
  run: (ctx: CheckContext) => Promise<CheckOutcome>,
  extra: Partial<CheckDefinition> = {},
): CheckDefinition {
  return {
    id,
    name: `Check ${id}`,
    why: `Why ${id} matters`,
    fix: `How to fix ${id}`,
    docs: `${id}-doc`,
    quick: true,
    run,
    ...extra,
  };
}

export const passes =
  (detail = 'ok'): (() => Promise<CheckOutcome>) =>
  async () => ({ status: 'passed', detail });

/** Resolves when `signal` aborts (a check that honours Stop), rejecting with an AbortError. */
export function untilAborted(ctx: CheckContext): Promise<CheckOutcome> {
  return new Promise((_, reject) => {
    ctx.signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), {
      once: true,
    });
  });
}

export function fakeSuite(
  id: SuiteId,
  checks: CheckDefinition[],
  extra: Partial<SuiteDefinition> = {},
): SuiteDefinition {
  return {
    id,
    name: `Suite ${id}`,
    description: `Checks ${id}`,
    category: 'unit',
    covers: [`${id} coverage`],
    checks,
    ...extra,
  };
}
