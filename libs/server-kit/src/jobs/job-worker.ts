import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  JobRegistry,
  type HandlersFor,
  type JobContext,
  type JobDefinition,
  type JobOutcome,
  type ParsedJob,
} from './job-registry';
import { recordJob, type JobMetricOutcome } from '../metrics/job-metrics';
import type { QueueConnection } from './job-queue';
import type { QueueDefinition } from './queues';

export interface JobLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface JobWorkerOptions {
  /** Instead of the queue policy's concurrency. */
  concurrency?: number;
  logger: JobLogger;
}

/** What running one job came to (a refused job in a `drop` queue is `dropped`). */
export type JobRun = JobOutcome | { kind: 'dropped'; reason: string };

/**
 * The consuming side of one queue of JOB_QUEUES. Its registry is built in the constructor, so a
 * job without a handler fails the boot, not the first job. Each job's name is looked up and its
 * payload validated (a refused job fails for good, or is dropped, as the queue's policy says);
 * a handler's `retry` becomes a delayed job; a throw is retried with the job's backoff, and
 * `onFinalFailure` hears of the last one. Finished and failed jobs are kept as the policy says,
 * whoever queued them.
 */
export class JobWorker<D extends readonly JobDefinition[] = readonly JobDefinition[]> {
  readonly registry: JobRegistry;
  private worker: Worker | undefined;

  constructor(
    readonly definition: QueueDefinition<D>,
    handlers: HandlersFor<NoInfer<D>>,
    private readonly connection: QueueConnection,
    private readonly options: JobWorkerOptions,
  ) {
    this.registry = JobRegistry.create(definition.name, definition.jobs, handlers);
  }

  get queue(): string {
    return this.definition.name;
  }

  get concurrency(): number {
    return this.options.concurrency ?? this.definition.policy.concurrency;
  }

  /** Starts consuming; resolves once the worker's connections are ready. */
  async start(): Promise<void> {
    if (this.worker) return;
    const { logger } = this.options;
    const { policy } = this.definition;
    const worker = new Worker(this.queue, (job, token) => this.process(job, token), {
      connection: this.connection.connection,
      prefix: this.connection.prefix,
      concurrency: this.concurrency,
      removeOnComplete: policy.removeOnComplete === true ? { count: 0 } : { count: policy.removeOnComplete },
      removeOnFail:
        typeof policy.removeOnFail === 'number' ? { count: policy.removeOnFail } : policy.removeOnFail,
    });
    // Messages only: a transport's error may quote a job's envelope, never its payload.
    worker.on('error', (error) => logger.error(`Queue ${this.queue}: ${error.message}`));
    worker.on('failed', (job, error) => {
      if (job) {
        logger.warn(
          `${capitalise(this.definition.noun)} ${job.id ?? '?'} (${job.name}) failed ` +
            `(attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}): ${error.message}`,
        );
      }
    });
    this.worker = worker;
    await worker.waitUntilReady();
    logger.log(
      `Consuming ${this.queue} (jobs: ${this.registry.names.join(', ')}; concurrency ${this.concurrency})`,
    );
  }

  /** Stops taking jobs and waits for the running ones to finish. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.close();
  }

  /** Validates and runs one job: what the worker does with each, without BullMQ's side of it. */
  async run(name: string, data: unknown, ctx: JobContext): Promise<JobRun> {
    const parsed = this.accept(name, data, ctx.jobId);
    return parsed.ok ? parsed.handler.handle(parsed.payload, ctx) : parsed.dropped;
  }

  /** Runs one job taken from the queue, counted in jobs_total and job_duration_seconds. */
  private async process(job: Job, token: string | undefined): Promise<unknown> {
    const started = process.hrtime.bigint();
    let outcome: JobMetricOutcome = 'failed';
    try {
      return await this.runTaken(job, token, (o) => (outcome = o));
    } finally {
      recordJob(this.queue, outcome, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  private async runTaken(
    job: Job,
    token: string | undefined,
    ended: (outcome: JobMetricOutcome) => void,
  ): Promise<unknown> {
    const ctx = { jobId: String(job.id), attempt: Math.max(1, job.attemptsStarted) };
    let parsed: ReturnType<JobWorker['accept']>;
    try {
      parsed = this.accept(job.name, job.data, ctx.jobId);
    } catch (error) {
      ended('refused');
      throw error;
    }
    if (!parsed.ok) {
      ended('dropped');
      return undefined;
    }
    let outcome: JobOutcome;
    try {
      outcome = await parsed.handler.handle(parsed.payload, ctx);
    } catch (error) {
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      ended(final ? 'failed_final' : 'failed');
      if (final && parsed.handler.onFinalFailure) {
        await parsed.handler.onFinalFailure(parsed.payload, error).catch((e: unknown) => {
          this.options.logger.error(`Job ${job.id}: reporting the failure failed too: ${String(e)}`);
        });
      }
      throw error;
    }
    if (outcome.kind === 'retry') {
      if (!token) throw new Error('BullMQ gave no lock token; cannot delay the job');
      await job.moveToDelayed(Date.now() + outcome.afterMs, token);
      ended('delayed');
      throw new DelayedError();
    }
    ended('completed');
    return outcome.value;
  }

  /** The job's handler and payload; a refused job is dropped (logged) or failed for good, as the policy says. */
  private accept(
    name: string,
    data: unknown,
    jobId: string,
  ): Extract<ParsedJob, { ok: true }> | { ok: false; dropped: JobRun } {
    const parsed = this.registry.parse(name, data);
    if (parsed.ok) return parsed;
    const { message } = parsed.error;
    if (this.definition.policy.invalid === 'drop') {
      this.options.logger.warn(`Dropped a malformed ${this.definition.noun} (job ${jobId}): ${message}`);
      return { ok: false, dropped: { kind: 'dropped', reason: message } };
    }
    this.options.logger.error(`Job ${jobId} refused: ${message}`);
    throw new UnrecoverableError(message);
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
