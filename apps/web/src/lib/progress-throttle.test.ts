import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_INTERVAL_MS, ProgressThrottle } from './progress-throttle';

interface Step {
  stage: string;
  percent: number;
}

describe('ProgressThrottle', () => {
  let shown: string[];
  let throttle: ProgressThrottle<Step>;
  const push = (key: string, stage: string, percent: number) => throttle.push(key, { stage, percent });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    shown = [];
    throttle = new ProgressThrottle<Step>(
      (key, { stage, percent }) => shown.push(`${key} ${stage} ${percent}`),
      (a, b) => a.stage !== b.stage,
    );
  });

  afterEach(() => {
    throttle.dispose();
    vi.useRealTimers();
  });

  it('shows the first value at once, then the latest at most every PROGRESS_INTERVAL_MS', () => {
    push('a', 'up', 0);
    push('a', 'up', 10);
    push('a', 'up', 20);
    expect(shown).toEqual(['a up 0']);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS - 1);
    expect(shown).toEqual(['a up 0']);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['a up 0', 'a up 20']);
    // The interval starts again from that showing.
    push('a', 'up', 30);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(shown).toEqual(['a up 0', 'a up 20', 'a up 30']);
    // Nothing waiting: nothing more shows.
    vi.advanceTimersByTime(10 * PROGRESS_INTERVAL_MS);
    expect(shown).toHaveLength(3);
  });

  it('shows an urgent value at once and drops the one that waited', () => {
    push('a', 'up', 0);
    push('a', 'up', 50);
    push('a', 'down', 5);
    expect(shown).toEqual(['a up 0', 'a down 5']);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(shown).toEqual(['a up 0', 'a down 5']);
  });

  it('keeps each key on its own interval', () => {
    push('a', 'up', 0);
    push('b', 'up', 0);
    push('a', 'up', 1);
    expect(shown).toEqual(['a up 0', 'b up 0']);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(shown).toEqual(['a up 0', 'b up 0', 'a up 1']);
  });

  it('mark() starts the interval for a value shown elsewhere; forget() and dispose() drop what waits', () => {
    throttle.mark('a', { stage: 'up', percent: 0 });
    push('a', 'up', 40);
    expect(shown).toEqual([]);
    throttle.forget('a');
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(shown).toEqual([]);
    // Forgotten: the next value is a first one again.
    push('a', 'up', 60);
    push('a', 'up', 70);
    expect(shown).toEqual(['a up 60']);
    throttle.dispose();
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(shown).toEqual(['a up 60']);
  });

  it('takes another interval', () => {
    const quick = new ProgressThrottle<Step>(
      (key, { percent }) => shown.push(`${key} ${percent}`),
      () => false,
      0,
    );
    quick.push('a', { stage: 'up', percent: 1 });
    quick.push('a', { stage: 'up', percent: 2 });
    expect(shown).toEqual(['a 1', 'a 2']);
  });
});
