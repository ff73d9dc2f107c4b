import { withTimeout } from '../health/health';
import { defineCounter, defineGauge, defineHistogram } from './registry';

/**
 * What became of one run of a job: `completed`; `delayed` (the handler asked to run later);
 * `failed` (it threw and BullMQ retries it); `failed_final` (it threw on its last attempt);
 * `dropped` (a malformed job a `drop` queue completes); `refused` (a malformed job a `fail` queue
 * fails for good).
 */
export type JobMetricOutcome = 'completed' | 'delayed' | 'failed' | 'failed_final' | 'dropped' | 'refused';

/** Seconds: a purge or a mail takes well under a second, a scan of a large file minutes. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The states counted at each scrape. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** A scrape waits this long for a queue's counts; a slow Redis leaves the queue out, never the scrape. */
export const QUEUE_DEPTH_TIMEOUT_MS = 1000;

const jobsTotal = () =>
  defineCounter('jobs_total', 'Jobs run by this process, by queue and outcome', ['queue', 'outcome']);
const jobDuration = () =>
  defineHistogram(
    'job_duration_seconds',
    'Time one run of a job took, by queue and outcome',
    ['queue', 'outcome'],
    JOB_BUCKETS,
  );

export function recordJob(queue: string, outcome: JobMetricOutcome, seconds: number): void {
  jobsTotal().inc({ queue, outcome });
  jobDuration().observe({ queue, outcome }, seconds);
}

type CountJobs = () => Promise<Partial<Record<string, number>>>;

/** The queues this process holds (as producer or consumer), each counted once per scrape. */
const watched = new Map<string, CountJobs[]>();

type Depths = Map<string, Partial<Record<string, number>> | undefined>;

/**
 * One count of every watched queue per scrape, shared by the two gauges below (the registry asks
 * them at once): each queue's counts, or undefined when it did not answer in time.
 */
let round: Promise<Depths> | undefined;
function countQueues(): Promise<Depths> {
  round ??= Promise.all(
    [...watched].map(
      async ([queue, counters]): Promise<[string, Partial<Record<string, number>> | undefined]> => {
        try {
          return [queue, await withTimeout(counters[0]!(), QUEUE_DEPTH_TIMEOUT_MS)];
        } catch {
          return [queue, undefined];
        }
      },
    ),
  )
    .then((entries) => new Map(entries))
    .finally(() => {
      round = undefined;
    });
  return round;
}

function ensureDepthGauges(): void {
  defineGauge(
    'queue_jobs',
    'Jobs in a queue by state, counted at scrape time',
    ['queue', 'state'],
    async function () {
      const depths = await countQueues();
      this.reset();
      for (const [queue, counts] of depths) {
        if (counts) for (const state of QUEUE_STATES) this.set({ queue, state }, counts[state] ?? 0);
      }
    },
  );
  defineGauge(
    'queue_depth_up',
    'Whether the last scrape could count the queue in time (0: its queue_jobs are left out)',
    ['queue'],
    async function () {
      const depths = await countQueues();
      this.reset();
      for (const [queue, counts] of depths) this.set({ queue }, counts ? 1 : 0);
    },
  );
}

/**
 * Counts a queue's jobs at every scrape (`queue_jobs{queue,state}`) until the returned function is
 * called. Several holders of one queue in a process are counted once.
 */
export function watchQueueDepth(queue: string, count: CountJobs): () => void {
  ensureDepthGauges();
  const counters = watched.get(queue) ?? [];
  counters.push(count);
  watched.set(queue, counters);
  return () => {
    const left = (watched.get(queue) ?? []).filter((c) => c !== count);
    if (left.length > 0) watched.set(queue, left);
    else watched.delete(queue);
  };
}
