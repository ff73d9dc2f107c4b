import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../model/suite';
import { fakeCheck, fakeSuite, passes, untilAborted } from '../testing/fake-suites';
import { runSuite, type RunEvent } from './run-suite';

const ctxOf = (base: CheckContext) => base;

/** A clock that moves only when told: durations are what the checks "took". */
function manualClock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('runSuite', () => {
  it('runs the checks in order, one at a time, and times each', async () => {
    const clock = manualClock();
    const order: string[] = [];
    let running = 0;
    const step = (id: string, ms: number) =>
      fakeCheck(id, async (ctx) => {
        running += 1;
        expect(running).toBe(1);
        order.push(`start ${id}`);
        await Promise.resolve();
        clock.advance(ms);
        ctx.log(`measured ${id}`);
        order.push(`end ${id}`);
        running -= 1;
        return { status: 'passed', detail: `${id} took ${ms}`, metrics: { ms } };
      });
    const events: RunEvent[] = [];
    const run = await runSuite(fakeSuite('crypto', [step('a', 5), step('b', 7)]), ctxOf, {
      quick: false,
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
      now: clock.now,
    });
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(run.status).toBe('passed');
    expect(run.checks.map((c) => [c.id, c.status, c.durationMs])).toEqual([
      ['a', 'passed', 5],
      ['b', 'passed', 7],
    ]);
    expect(run.durationMs).toBe(12);
    expect(run.checks[0]!.metrics).toEqual({ ms: 5 });
    expect(run.output).toContain('  measured a');
    expect(events.map((e) => e.type).filter((t) => t !== 'output')).toEqual([
      'suite-start',
      'check-start',
      'check-end',
      'check-start',
      'check-end',
      'suite-end',
    ]);
    expect(events.filter((e) => e.type === 'output').map((e) => (e as { line: string }).line)).toEqual(
      run.output,
    );
  });

  it('turns a thrown error into a failed check with its message, and goes on', async () => {
    const run = await runSuite(
      fakeSuite('api', [
        fakeCheck('boom', async () => {
          throw new Error('notes service unreachable');
        }),
        fakeCheck('after', passes()),
      ]),
      ctxOf,
      { quick: false, signal: new AbortController().signal },
    );
    expect(run.status).toBe('failed');
    expect(run.checks[0]).toMatchObject({
      status: 'failed',
      detail: 'notes service unreachable',
      why: 'Why boom matters',
      fix: 'How to fix boom',
      docs: 'boom-doc',
    });
    expect(run.checks[1]!.status).toBe('passed');
    expect(run.errors).toEqual(['Check boom: notes service unreachable']);
  });

  it('keeps warnings from failing the suite, but explains them', async () => {
    const run = await runSuite(
      fakeSuite('security', [fakeCheck('w', async () => ({ status: 'warning', detail: 'plain HTTP' }))]),
      ctxOf,
      { quick: false, signal: new AbortController().signal },
    );
    expect(run.status).toBe('passed');
    expect(run.checks[0]).toMatchObject({ status: 'warning', why: 'Why w matters' });
  });

  it('runs only the quick checks in Quick Test', async () => {
    const run = await runSuite(
      fakeSuite('performance', [fakeCheck('q', passes()), fakeCheck('slow', passes(), { quick: false })]),
      ctxOf,
      { quick: true, signal: new AbortController().signal },
    );
    expect(run.quick).toBe(true);
    expect(run.checks.map((c) => c.id)).toEqual(['q']);
  });

  it('stops at abort: the running check is cancelled and nothing after it starts', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const suite = fakeSuite('e2e', [
      fakeCheck('first', async () => {
        started.push('first');
        return { status: 'passed', detail: 'ok' };
      }),
      fakeCheck('long', (ctx) => {
        started.push('long');
        queueMicrotask(() => controller.abort());
        return untilAborted(ctx);
      }),
      fakeCheck('never', async () => {
        started.push('never');
        return { status: 'passed', detail: 'ok' };
      }),
    ]);
    const run = await runSuite(suite, ctxOf, { quick: false, signal: controller.signal });
    expect(started).toEqual(['first', 'long']);
    expect(run.status).toBe('cancelled');
    expect(run.checks.map((c) => [c.id, c.status])).toEqual([
      ['first', 'passed'],
      ['long', 'cancelled'],
    ]);
    expect(run.errors).toEqual([]);
  });

  it('does not wait for a check that ignores the signal, and drops what it logs afterwards', async () => {
    const controller = new AbortController();
    let finish: () => void = () => undefined;
    const suite = fakeSuite('api', [
      fakeCheck(
        'stubborn',
        (ctx) =>
          new Promise((resolve) => {
            finish = () => {
              ctx.log('late line');
              resolve({ status: 'passed', detail: 'late' });
            };
            queueMicrotask(() => controller.abort());
          }),
      ),
    ]);
    const run = await runSuite(suite, ctxOf, { quick: false, signal: controller.signal });
    finish();
    await Promise.resolve();
    expect(run.status).toBe('cancelled');
    expect(run.output.join('\n')).not.toContain('late line');
  });

  it('starts nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    const run = await runSuite(
      fakeSuite('crypto', [
        fakeCheck('x', async () => {
          ran = true;
          return { status: 'passed', detail: '' };
        }),
      ]),
      ctxOf,
      { quick: false, signal: controller.signal },
    );
    expect(ran).toBe(false);
    expect(run.status).toBe('cancelled');
    expect(run.checks).toEqual([]);
  });
});
