import { lockRemainingMs, retryAfterSeconds } from './lockout';

describe('lockout arithmetic', () => {
  it.each([
    [600_000, 600],
    [599_001, 600],
    [1_500, 2],
    [1_000, 1],
    [1, 1],
    [0, 1],
  ])('rounds %i ms up to %i s and never answers less than 1 s', (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });

  const now = Date.UTC(2026, 0, 1);

  it('is not locked when neither Redis nor the row hold a lock', () => {
    expect(lockRemainingMs(0, null, now)).toBe(0);
    expect(lockRemainingMs(-2, null, now)).toBe(0);
  });

  it('takes the Redis lock when the row has none', () => {
    expect(lockRemainingMs(5_000, null, now)).toBe(5_000);
  });

  it('takes the row lock when Redis lost its keys', () => {
    expect(lockRemainingMs(0, new Date(now + 60_000), now)).toBe(60_000);
  });

  it('takes the longer of both locks', () => {
    expect(lockRemainingMs(5_000, new Date(now + 60_000), now)).toBe(60_000);
    expect(lockRemainingMs(90_000, new Date(now + 60_000), now)).toBe(90_000);
  });

  it('ignores a row lock that has already passed', () => {
    expect(lockRemainingMs(0, new Date(now - 1), now)).toBe(0);
  });
});
