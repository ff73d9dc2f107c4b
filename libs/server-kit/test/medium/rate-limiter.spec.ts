import { createTestRedis, type TestRedis } from '../../src/testing';
import { RedisRateLimiter, redisKeys } from '../../src/redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(RedisRateLimiter.name, () => {
  let redis: TestRedis;
  let limiter: RedisRateLimiter;

  beforeAll(async () => {
    redis = await createTestRedis('rate');
    limiter = new RedisRateLimiter(redis.client);
  });

  afterAll(async () => {
    await redis?.cleanup();
  });

  it('allows `limit` hits in a window, then refuses, counting down what remains', async () => {
    const rule = { limit: 3, windowMs: 60_000 };
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await limiter.hit('rl:t:a', rule));
    expect(answers.map((a) => [a.allowed, a.count, a.remaining])).toEqual([
      [true, 1, 2],
      [true, 2, 1],
      [true, 3, 0],
      [false, 4, 0],
      [false, 5, 0],
    ]);
    const last = answers[4]!;
    expect(last.limit).toBe(3);
    expect(last.resetMs).toBeGreaterThan(59_000);
    expect(last.resetMs).toBeLessThanOrEqual(60_000);
    expect(last.retryAfter).toBe(60);
  });

  it('opens a new window once the old one has passed', async () => {
    const rule = { limit: 1, windowMs: 150 };
    expect((await limiter.hit('rl:t:short', rule)).allowed).toBe(true);
    const refused = await limiter.hit('rl:t:short', rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(1);
    await sleep(200);
    expect(await limiter.hit('rl:t:short', rule)).toMatchObject({ allowed: true, count: 1 });
  });

  it('keeps the window of its first hit: later hits do not extend it', async () => {
    const rule = { limit: 10, windowMs: 400 };
    await limiter.hit('rl:t:fixed', rule);
    await sleep(150);
    const later = await limiter.hit('rl:t:fixed', rule);
    expect(later.resetMs).toBeLessThanOrEqual(260);
  });

  it('hitIfExists counts like hit while the required key exists, and counts nothing (null) when it does not', async () => {
    const rule = { limit: 2, windowMs: 60_000 };
    expect(await limiter.hitIfExists('sess:t:gone', 'rl:t:guarded', rule)).toBeNull();
    expect(await redis.client.exists('rl:t:guarded')).toBe(0);
    await redis.client.set('sess:t:live', '1');
    const answers = [];
    for (let i = 0; i < 3; i += 1)
      answers.push(await limiter.hitIfExists('sess:t:live', 'rl:t:guarded', rule));
    expect(answers.map((a) => [a?.allowed, a?.count, a?.remaining])).toEqual([
      [true, 1, 1],
      [true, 2, 0],
      [false, 3, 0],
    ]);
    expect(answers[0]!.resetMs).toBeGreaterThan(59_000);
    expect(await redis.client.pttl('rl:t:guarded')).toBeGreaterThan(59_000);
    await redis.client.del('sess:t:live');
    expect(await limiter.hitIfExists('sess:t:live', 'rl:t:guarded', rule)).toBeNull();
    expect(await redis.client.get('rl:t:guarded')).toBe('3');
  });

  it('peeks without counting: allowed while fewer than `limit` hits', async () => {
    expect(await limiter.peek('rl:t:peek', 2)).toMatchObject({
      allowed: true,
      count: 0,
      remaining: 2,
      resetMs: 0,
    });
    await limiter.hit('rl:t:peek', { limit: 2, windowMs: 60_000 });
    await limiter.hit('rl:t:peek', { limit: 2, windowMs: 60_000 });
    const peeked = await limiter.peek('rl:t:peek', 2);
    expect(peeked).toMatchObject({ allowed: false, count: 2, remaining: 0, retryAfter: 60 });
    expect((await limiter.peek('rl:t:peek', 2)).count).toBe(2);
  });

  it('counts concurrent hits exactly, from any number of clients', async () => {
    const client = redis.client.duplicate();
    const other = new RedisRateLimiter(client);
    const rule = { limit: 10, windowMs: 60_000 };
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? limiter : other).hit('rl:t:burst', rule)),
    );
    client.disconnect();
    expect(answers.filter((a) => a.allowed)).toHaveLength(10);
    expect(answers.map((a) => a.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
  });

  it('stores a plain counter under the caller key, expiring with the window, and forgets it on reset', async () => {
    const key = redisKeys.rateLimit('gw-api', 'ip:192.0.2.1');
    await limiter.hit(key, { limit: 5, windowMs: 30_000 }, 2);
    expect(await redis.client.get('rl:gw-api:ip:192.0.2.1')).toBe('2');
    const ttl = await redis.client.pttl(key);
    expect(ttl).toBeGreaterThan(29_000);
    await limiter.reset(key);
    expect(await redis.client.exists(key)).toBe(0);
  });
});
