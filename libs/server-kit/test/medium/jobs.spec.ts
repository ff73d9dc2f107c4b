import { createTestRedis, type TestRedis } from '../../src/testing';
import { z } from 'zod';
import { defineJob, JobQueues, type JobLogger, type JobOutcome, type QueueDefinition } from '../../src/jobs';

const echoSchema = z.object({ id: z.string().min(1), failures: z.number().int().default(0) });

/** A queue like the product's: job ids from the payload, 3 tries 100 ms apart and doubling. */
const testQueue = {
  name: 'test-jobs',
  noun: 'test job',
  jobs: [defineJob('echo', echoSchema, (payload) => `echo-${payload.id}`)],
  policy: {
    attempts: 3,
    backoffMs: 100,
    removeOnComplete: true,
    removeOnFail: 10,
    invalid: 'fail',
    concurrency: 2,
  },
} as const satisfies QueueDefinition;

const droppingQueue = {
  ...testQueue,
  name: 'test-jobs-drop',
  policy: { ...testQueue.policy, invalid: 'drop' },
} as const satisfies QueueDefinition;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('JobQueues (BullMQ on real Redis)', () => {
  let redis: TestRedis;
  let jobs: JobQueues;
  const logs: string[] = [];
  const logger: JobLogger = {
    log: (m) => logs.push(`log ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  /** Each run of an echo job: its id and when it started. */
  const runs: { id: string; at: number; attempt: number }[] = [];

  beforeAll(async () => {
    redis = await createTestRedis('jobs');
    jobs = JobQueues.connect({ url: redis.url, prefix: redis.prefix });
    const handle = async (
      payload: z.output<typeof echoSchema>,
      ctx: { attempt: number },
    ): Promise<JobOutcome> => {
      runs.push({ id: payload.id, at: Date.now(), attempt: ctx.attempt });
      if (ctx.attempt <= payload.failures) throw new Error(`failure ${ctx.attempt} of ${payload.id}`);
      return { kind: 'done', value: payload.id.length };
    };
    await jobs.worker(testQueue, { echo: { handle } }, { logger }).start();
    await jobs.worker(droppingQueue, { echo: { handle } }, { logger }).start();
  });

  afterAll(async () => {
    await jobs?.close();
    await redis?.cleanup();
  });

  const runsOf = (id: string) => runs.filter((r) => r.id === id);

  it('refuses to build a worker without a handler for a job its queue names', () => {
    expect(() => jobs.worker(testQueue, {} as never, { logger })).toThrow(
      'Queue test-jobs: refusing to start: job "echo" has no handler',
    );
  });

  it('queues a payload once per job id, and removes the job once it completed', async () => {
    const queue = jobs.queue(testQueue);
    const [first, second] = await Promise.all([
      queue.add('echo', { id: 'dedup' }, { delay: 200 }),
      queue.add('echo', { id: 'dedup' }, { delay: 200 }),
    ]);
    expect(first.id).toBe('echo-dedup');
    expect(second.id).toBe('echo-dedup');
    await until(async () => runsOf('dedup').length > 0, 'the job to run');
    await until(async () => !(await queue.getJob('echo-dedup')), 'the completed job to be removed');
    await sleep(300);
    expect(runsOf('dedup')).toHaveLength(1);
  });

  it('retries a failing job with exponential backoff, then keeps it as failed', async () => {
    const queue = jobs.queue(testQueue);
    await queue.add('echo', { id: 'flaky', failures: 99 });
    const failed = await until(async () => {
      const job = await queue.getJob('echo-flaky');
      // Read it again once failed: the copy read before the last attempt ended is stale.
      return (await job?.isFailed()) ? queue.getJob('echo-flaky') : undefined;
    }, 'the job to fail for good');
    expect(failed?.attemptsMade).toBe(3);
    expect(failed?.failedReason).toBe('failure 3 of flaky');
    const starts = runsOf('flaky').map((r) => r.at);
    expect(runsOf('flaky').map((r) => r.attempt)).toEqual([1, 2, 3]);
    // 100 ms, then 200 ms (a little timer slack allowed).
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(95);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(195);
    expect(logs.some((l) => l.startsWith('warn Test job echo-flaky (echo) failed (attempt 3 of 3)'))).toBe(
      true,
    );
  });

  it('runs a job that fails fewer times than it may try, and completes it', async () => {
    const queue = jobs.queue(testQueue);
    await queue.add('echo', { id: 'second-time', failures: 1 });
    await until(async () => runsOf('second-time').length === 2, 'the retry');
    await until(async () => !(await queue.getJob('echo-second-time')), 'the completed job to be removed');
  });

  it('refuses to queue a payload its schema refuses', async () => {
    await expect(jobs.queue(testQueue).add('echo', { id: '' })).rejects.toThrow(
      /^Refused to queue an invalid "echo" job: id: /,
    );
  });

  it('fails a job its registry refuses for good, or drops it, as the queue says', async () => {
    const strict = jobs.queue(testQueue).queue;
    await strict.add('nope', {}, { jobId: 'unknown-name', attempts: 3 });
    const failed = await until(async () => {
      const job = await strict.getJob('unknown-name');
      // Read it again once failed: the copy read before the attempt ended is stale.
      return (await job?.isFailed()) ? strict.getJob('unknown-name') : undefined;
    }, 'the refused job to fail');
    expect(failed.failedReason).toBe('Queue test-jobs has no job "nope" (known: echo)');
    expect(failed.attemptsMade).toBe(1);

    const lenient = jobs.queue(droppingQueue).queue;
    await lenient.add('echo', { id: 42 }, { jobId: 'bad-payload' });
    await until(
      async () =>
        logs.find((l) => l.startsWith('warn Dropped a malformed test job (job bad-payload): Invalid "echo"')),
      'the drop to be logged',
    );
    expect(await lenient.getJob('bad-payload')).toBeUndefined();
  });

  it('holds a delayed job until it is promoted, and removes one that has not run', async () => {
    const queue = jobs.queue(testQueue);
    await queue.add('echo', { id: 'held' }, { delay: 60_000 });
    await queue.add('echo', { id: 'cancelled' }, { delay: 60_000 });
    expect(await queue.promote('echo-held')).toBe(true);
    await until(async () => runsOf('held').length === 1, 'the promoted job to run');
    await queue.remove('echo-cancelled');
    expect(await queue.getJob('echo-cancelled')).toBeUndefined();
    expect(await queue.promote('echo-cancelled')).toBe(false);
  });
});
