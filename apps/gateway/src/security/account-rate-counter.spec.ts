import { rateLimitAnswer, type RateLimitAnswer, type RateLimitRule } from '@vault/server-kit';
import { AccountRateCounter, type SendHits } from './account-rate-counter';

const KEY = 'rl:gw-api:user:u1';
const rule = (limit: number): RateLimitRule => ({ limit, windowMs: 60_000 });

/**
 * A fixed window counted the way Redis's script does, answering in order after a tick (one
 * connection): the truth the counter is checked against.
 */
class FakeRedis {
  counts = new Map<string, number>();
  sent: number[] = [];
  failing = false;
  hit(key: string, r: RateLimitRule, cost: number): Promise<RateLimitAnswer> {
    this.sent.push(cost);
    if (this.failing) return Promise.reject(new Error('connection closed'));
    const count = (this.counts.get(key) ?? 0) + cost;
    this.counts.set(key, count);
    return Promise.resolve(rateLimitAnswer(count, r.limit, 60_000, count <= r.limit));
  }
}

function setup(options: { enabled?: boolean; limit?: number } = {}) {
  const redis = new FakeRedis();
  let clock = 1_000_000;
  const onSendFailure = jest.fn();
  const counter = new AccountRateCounter({
    enabled: options.enabled ?? true,
    send: ((key, r, cost) => redis.hit(key, r, cost)) as SendHits,
    flushMs: 100,
    headroom: 0.1,
    onSendFailure,
    now: () => clock,
  });
  const r = rule(options.limit ?? 100);
  /** What SessionLiveness does for one signed-in request of a remembered session. */
  const request = async (): Promise<RateLimitAnswer> => {
    const local = counter.local(KEY, r);
    if (local) return local;
    const cost = counter.take(KEY);
    try {
      const answer = await redis.hit(KEY, r, cost);
      counter.settle(KEY, r, cost, answer);
      return answer;
    } catch (error) {
      counter.settle(KEY, r, cost, undefined);
      throw error;
    }
  };
  return { redis, counter, request, r, onSendFailure, advance: (ms: number) => (clock += ms) };
}

describe(AccountRateCounter.name, () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('counts the first hit of a window in Redis, then decides here and sends the hits in one batch', async () => {
    const { redis, counter, request } = setup();
    expect(await request()).toMatchObject({ allowed: true, count: 1, remaining: 99 });
    expect(redis.sent).toEqual([1]);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await request());
    expect(answers.map((a) => a.count)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(answers.every((a) => a.allowed && a.resetMs === 60_000 && a.retryAfter === 60)).toBe(true);
    expect(redis.sent).toEqual([1]);
    await jest.advanceTimersByTimeAsync(100);
    expect(redis.sent).toEqual([1, 10]);
    expect(redis.counts.get(KEY)).toBe(11);
    expect(counter.size).toBe(1);
  });

  it('lets exactly `limit` hits pass with many in flight, counting the last tenth in Redis one by one', async () => {
    const { redis, request } = setup({ limit: 50 });
    const first = await request();
    const answers = [first, ...(await Promise.all(Array.from({ length: 120 }, () => request())))];
    await jest.advanceTimersByTimeAsync(100);
    expect(answers.filter((a) => a.allowed)).toHaveLength(50);
    // 44 decided here, sent with the 45th; then one by one.
    expect(redis.sent.slice(0, 3)).toEqual([1, 45, 1]);
    // Once 45 were counted, each further hit went to Redis: the truth decided the last five.
    const later = await Promise.all(Array.from({ length: 30 }, () => request()));
    expect(later.every((a) => !a.allowed)).toBe(true);
    expect(redis.counts.get(KEY)).toBeGreaterThanOrEqual(50);
  });

  it('sends every hit of the last tenth to Redis, and refuses without Redis once the limit is reached', async () => {
    const { redis, counter, request, r } = setup({ limit: 20 });
    for (let i = 0; i < 18; i++) expect((await request()).allowed).toBe(true);
    await jest.advanceTimersByTimeAsync(100);
    const sentBefore = redis.sent.length;
    expect(counter.local(KEY, r)).toBeUndefined();
    expect((await request()).allowed).toBe(true);
    expect((await request()).allowed).toBe(true);
    expect(redis.sent.length).toBe(sentBefore + 2);
    expect(redis.counts.get(KEY)).toBe(20);
    const refused = counter.local(KEY, r);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60 });
    expect(redis.sent.length).toBe(sentBefore + 2);
  });

  it('asks Redis again once the window has closed, and drops the hits of the old one not yet sent', async () => {
    const { redis, counter, request, r, advance } = setup();
    await request();
    await request();
    advance(60_001);
    expect(counter.local(KEY, r)).toBeUndefined();
    await jest.advanceTimersByTimeAsync(100);
    expect(redis.sent).toEqual([1]);
    redis.counts.clear();
    expect(await request()).toMatchObject({ allowed: true, count: 1 });
  });

  it('forgets the window when a batch fails, and says so', async () => {
    const { redis, counter, request, r, onSendFailure } = setup();
    await request();
    await request();
    redis.failing = true;
    await jest.advanceTimersByTimeAsync(100);
    expect(onSendFailure).toHaveBeenCalledWith(expect.objectContaining({ message: 'connection closed' }));
    expect(counter.local(KEY, r)).toBeUndefined();
    await expect(request()).rejects.toThrow('connection closed');
  });

  it('keeps the carried hits for the next batch when Redis counted nothing (an ended session)', async () => {
    const { redis, counter, request, r } = setup();
    await request();
    await request();
    await request();
    const cost = counter.take(KEY);
    expect(cost).toBe(3);
    counter.settle(KEY, r, cost, null);
    await jest.advanceTimersByTimeAsync(100);
    expect(redis.sent).toEqual([1, 2]);
    expect(redis.counts.get(KEY)).toBe(3);
  });

  it('sends what waits at close', async () => {
    const { redis, counter, request } = setup();
    await request();
    await request();
    await counter.close();
    expect(redis.sent).toEqual([1, 1]);
  });

  it('decides nothing when turned off (SESSION_CACHE=false)', async () => {
    const { redis, counter, request, r } = setup({ enabled: false });
    for (let i = 0; i < 3; i++) await request();
    expect(counter.local(KEY, r)).toBeUndefined();
    expect(redis.sent).toEqual([1, 1, 1]);
    expect(counter.size).toBe(0);
  });
});
