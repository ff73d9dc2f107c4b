import { z } from 'zod';
import { defineJob, JobQueues, type JobOutcome, type QueueDefinition } from '../../src/jobs';
import { renderMetrics } from '../../src/metrics';
import { createTestRedis, metricValue, parseMetrics, type TestRedis } from '../../src/testing';

const payloadSchema = z.object({ id: z.string().min(1), outcome: z.enum(['done', 'throw', 'later']) });

/** One try per job, so a throw is final; malformed jobs are dropped. */
const metricsQueue = {
  name: 'metrics-jobs',
  noun: 'metrics job',
  jobs: [defineJob('work', payloadSchema, (payload) => `work-${payload.id}`)],
  policy: {
    attempts: 1,
    backoffMs: 0,
    removeOnComplete: true,
    removeOnFail: 10,
    invalid: 'drop',
    concurrency: 1,
  },
} as const satisfies QueueDefinition;

/** Nobody consumes it: its jobs wait, and its depth shows them. */
const idleQueue = { ...metricsQueue, name: 'metrics-idle' } as const satisfies QueueDefinition;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const scrape = async () => parseMetrics((await renderMetrics()).body);

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await probe()); await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
  }
}

describe('job metrics (BullMQ on real Redis)', () => {
  let redis: TestRedis;
  let jobs: JobQueues;
  const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

  beforeAll(async () => {
    redis = await createTestRedis('job-metrics');
    jobs = JobQueues.connect({ url: redis.url, prefix: redis.prefix });
    const handle = async (payload: z.output<typeof payloadSchema>): Promise<JobOutcome> => {
      if (payload.outcome === 'throw') throw new Error('handler failed');
      if (payload.outcome === 'later') return { kind: 'retry', afterMs: 60_000, reason: 'not yet' };
      return { kind: 'done', value: payload.id };
    };
    await jobs.worker(metricsQueue, { work: { handle } }, { logger: silent }).start();
  });

  afterAll(async () => {
    await jobs?.close();
    await redis?.cleanup();
  });

  it('counts each outcome a worker comes to, and times the runs', async () => {
    const queue = jobs.queue(metricsQueue);
    await queue.add('work', { id: 'a', outcome: 'done' });
    await queue.add('work', { id: 'b', outcome: 'throw' });
    await queue.add('work', { id: 'c', outcome: 'later' });
    // A malformed job, as a producer without the schema could add it.
    await queue.queue.add('work', { id: '' }, { jobId: 'malformed' });

    const outcome = (name: string) => async () =>
      metricValue(await scrape(), 'jobs_total', { queue: 'metrics-jobs', outcome: name }) === 1;
    for (const name of ['completed', 'failed_final', 'delayed', 'dropped']) {
      await until(outcome(name), `a ${name} job`);
    }
    const samples = await scrape();
    expect(metricValue(samples, 'job_duration_seconds_count', { queue: 'metrics-jobs' })).toBe(4);
    // The delayed job waits its minute; the one that threw stays failed.
    expect(metricValue(samples, 'queue_jobs', { queue: 'metrics-jobs', state: 'delayed' })).toBe(1);
    expect(metricValue(samples, 'queue_jobs', { queue: 'metrics-jobs', state: 'failed' })).toBe(1);
    expect(metricValue(samples, 'queue_depth_up', { queue: 'metrics-jobs' })).toBe(1);
  });

  it("counts a queue's waiting jobs at scrape time, for a producer too", async () => {
    const idle = jobs.queue(idleQueue);
    await idle.add('work', { id: 'x', outcome: 'done' });
    await idle.add('work', { id: 'y', outcome: 'done' });
    const samples = await scrape();
    expect(metricValue(samples, 'queue_jobs', { queue: 'metrics-idle', state: 'waiting' })).toBe(2);
    expect(metricValue(samples, 'queue_jobs', { queue: 'metrics-idle', state: 'active' })).toBe(0);
  });
});
