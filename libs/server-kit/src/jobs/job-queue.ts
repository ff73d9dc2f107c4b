import { Queue, type Job, type JobsOptions } from 'bullmq';
import type Redis from 'ioredis';
import type { z } from 'zod';
import { QUEUE_STATES, watchQueueDepth } from '../metrics/job-metrics';
import { describeIssues, type JobDefinition } from './job-registry';
import type { QueueDefinition, QueuePolicy } from './queues';

/** Where a deployment's queues live: a BullMQ connection (no keyPrefix) and the queue prefix. */
export interface QueueConnection {
  connection: Redis;
  /** server-kit's queuePrefix(REDIS_PREFIX). */
  prefix: string;
}

type JobNamed<D extends readonly JobDefinition[], N> = Extract<D[number], { name: N }>;

export interface AddJobOptions {
  /** Held this long before it may run (delayed). */
  delay?: number;
  /** Instead of the definition's job id. */
  jobId?: string;
  /** Instead of the queue's policy, for a job whose payload must not outlive it. */
  removeOnComplete?: boolean | number;
  removeOnFail?: boolean | number;
}

/** The BullMQ options of a queue's policy (retries with exponential backoff, what is kept). */
export function jobOptionsOf(policy: QueuePolicy): JobsOptions {
  return {
    attempts: policy.attempts,
    ...(policy.backoffMs > 0 ? { backoff: { type: 'exponential', delay: policy.backoffMs } } : {}),
    removeOnComplete: policy.removeOnComplete,
    removeOnFail: policy.removeOnFail,
  };
}

/**
 * The producing side of one queue of JOB_QUEUES: a payload is validated against its job's schema
 * before it is queued, its job id comes from the definition, and the queue's policy is applied.
 */
export class JobQueue<D extends readonly JobDefinition[] = readonly JobDefinition[]> {
  readonly queue: Queue;
  private readonly jobs: ReadonlyMap<string, JobDefinition>;
  private readonly unwatch: () => void;

  constructor(
    readonly definition: QueueDefinition<D>,
    { connection, prefix }: QueueConnection,
  ) {
    this.jobs = new Map(definition.jobs.map((job) => [job.name, job]));
    this.queue = new Queue(definition.name, {
      connection,
      prefix,
      defaultJobOptions: jobOptionsOf(definition.policy),
    });
    // queue_jobs{queue,state} at each scrape (docs/metrics.md).
    this.unwatch = watchQueueDepth(definition.name, () => this.queue.getJobCounts(...QUEUE_STATES));
  }

  get name(): string {
    return this.definition.name;
  }

  /** Queues a job; with the id of a job the queue still holds, nothing is added (BullMQ answers that job). */
  async add<N extends D[number]['name']>(
    name: N,
    payload: z.input<JobNamed<D, N>['schema']>,
    options: AddJobOptions = {},
  ): Promise<Job> {
    const job = this.prepare(name, payload, options);
    return this.queue.add(name, job.data, job.opts);
  }

  /**
   * Queues many jobs of one name in one round trip (BullMQ addBulk), each validated like `add`;
   * ids the queue still holds add nothing. Nothing is queued when one payload is refused.
   */
  async addBulk<N extends D[number]['name']>(
    name: N,
    jobs: ReadonlyArray<{ payload: z.input<JobNamed<D, N>['schema']>; options?: AddJobOptions }>,
  ): Promise<Job[]> {
    const bulk = jobs.map(({ payload, options }) => this.prepare(name, payload, options));
    return bulk.length === 0 ? [] : this.queue.addBulk(bulk);
  }

  /** A job as BullMQ takes it: the payload validated by its schema, its id from the definition. */
  private prepare(name: string, payload: unknown, options: AddJobOptions = {}) {
    const definition = this.jobs.get(name);
    if (!definition) throw new Error(`Queue ${this.name} has no job "${name}"`);
    const parsed = definition.schema.safeParse(payload);
    if (!parsed.success) {
      throw new Error(`Refused to queue an invalid "${name}" job: ${describeIssues(parsed.error)}`);
    }
    const { jobId = definition.jobId?.(parsed.data), ...rest } = options;
    return {
      name,
      data: parsed.data as unknown,
      opts: { ...rest, ...(jobId === undefined ? {} : { jobId }) },
    };
  }

  /** Runs every `everyMs` (a BullMQ job scheduler: one run per interval however many replicas ask). */
  async schedule<N extends D[number]['name']>(
    name: N,
    everyMs: number,
    payload: z.input<JobNamed<D, N>['schema']>,
  ): Promise<void> {
    await this.queue.upsertJobScheduler(name, { every: everyMs }, { name, data: payload });
  }

  getJob(jobId: string): Promise<Job | undefined> {
    return this.queue.getJob(jobId);
  }

  /** Runs a delayed job now; false when there is no such job waiting out a delay. */
  async promote(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job || !(await job.isDelayed())) return false;
    await job.promote();
    return true;
  }

  /** Removes a job that has not started (a running one stays). */
  async remove(jobId: string): Promise<void> {
    await this.queue.remove(jobId);
  }

  close(): Promise<void> {
    this.unwatch();
    return this.queue.close();
  }
}
