import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InactivityTimer } from './inactivity-timer';

const MIN = 60_000;

function setup() {
  const events: string[] = [];
  const ticks: number[] = [];
  const timer = new InactivityTimer({
    timeoutMs: 10 * MIN,
    warningMs: MIN,
    onWarning: (ms) => events.push(`warning:${ms}`),
    onTick: (ms) => ticks.push(ms),
    onWarningCleared: () => events.push('cleared'),
    onTimeout: () => events.push('timeout'),
  });
  return { timer, events, ticks };
}

describe('InactivityTimer (spec: 10 minutes, warning 60 s before, activity throttled to 1 s)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-21T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('warns at 9:00 and times out at 10:00', () => {
    const { timer, events, ticks } = setup();
    timer.start();
    vi.advanceTimersByTime(9 * MIN - 1);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([`warning:${MIN}`]);
    expect(timer.isWarning).toBe(true);
    vi.advanceTimersByTime(30_000);
    expect(ticks.at(-1)).toBe(30_000);
    vi.advanceTimersByTime(30_000);
    expect(events).toEqual([`warning:${MIN}`, 'timeout']);
    expect(timer.isRunning).toBe(false);
  });

  it('resets on activity', () => {
    const { timer, events } = setup();
    timer.start();
    vi.advanceTimersByTime(8 * MIN);
    expect(timer.activity()).toBe(true);
    vi.advanceTimersByTime(8 * MIN);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(MIN);
    expect(events).toEqual([`warning:${MIN}`]);
  });

  it('counts activity at most once per second', () => {
    const { timer } = setup();
    timer.start();
    vi.advanceTimersByTime(5_000);
    expect(timer.activity()).toBe(true);
    vi.advanceTimersByTime(999);
    expect(timer.activity()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(timer.activity()).toBe(true);
    // The ignored activity did not move the deadline: 10 min after the last counted one.
    expect(timer.remainingMs()).toBe(10 * MIN);
  });

  it('ignores passive activity while the warning shows; Stay Logged In resets and clears it', () => {
    const { timer, events } = setup();
    timer.start();
    vi.advanceTimersByTime(9 * MIN + 10_000);
    expect(timer.activity()).toBe(false);
    expect(timer.isWarning).toBe(true);
    timer.stayLoggedIn();
    expect(events).toEqual([`warning:${MIN}`, 'cleared']);
    expect(timer.isWarning).toBe(false);
    expect(timer.remainingMs()).toBe(10 * MIN);
    vi.advanceTimersByTime(9 * MIN);
    expect(events.at(-1)).toBe(`warning:${MIN}`);
  });

  it('counts activity from another tab and clears a warning with it', () => {
    const { timer, events } = setup();
    timer.start();
    vi.advanceTimersByTime(9 * MIN + 5_000);
    timer.externalActivity(Date.now() - 1_000);
    expect(events).toEqual([`warning:${MIN}`, 'cleared']);
    expect(timer.remainingMs()).toBe(10 * MIN - 1_000);
    // Older activity than what is already counted changes nothing.
    timer.externalActivity(Date.now() - 5 * MIN);
    expect(timer.remainingMs()).toBe(10 * MIN - 1_000);
  });

  it('does nothing after stop', () => {
    const { timer, events } = setup();
    timer.start();
    timer.stop();
    vi.advanceTimersByTime(20 * MIN);
    expect(events).toEqual([]);
    expect(timer.activity()).toBe(false);
  });
});
