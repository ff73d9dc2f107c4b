import { Inject, Injectable, Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import { SCAN_WORKER_CONFIG, type ScanWorkerConfig } from '../config/scan-worker.config';
import type { JobRegistry } from '../jobs/job-registry';
import { QUEUE_CONNECTION } from './connections';

/** DI token of SCAN_QUEUE's registry (built, and checked, in AppModule). */
export const SCAN_JOB_REGISTRY = Symbol('SCAN_JOB_REGISTRY');

/**
 * Runs a registry's jobs from its BullMQ queue: looks the job name up, validates the payload
 * against its schema (an unknown name or a bad payload fails the job for good), runs the
 * handler, and turns a handler's `retry` into a delayed job. The worker owns its retry policy
 * (config SCAN_ATTEMPTS / SCAN_BACKOFF_MS), whatever options the producer queued the job with.
 */
@Injectable()
export class QueueWorker {
  private readonly logger = new Logger('QueueWorker');
  private worker: Worker | undefined;

  constructor(
    @Inject(SCAN_JOB_REGISTRY) private readonly registry: JobRegistry,
    @Inject(QUEUE_CONNECTION) private readonly connection: Redis,
    @Inject(SCAN_WORKER_CONFIG) private readonly config: ScanWorkerConfig,
  ) {}

  get queue(): string {
    return this.registry.queue;
  }

  /** Starts consuming; resolves once the worker's connections are ready. */
  async start(): Promise<void> {
    if (this.worker) return;
    const worker = new Worker(this.registry.queue, (job, token) => this.process(job, token), {
      connection: this.connection,
      prefix: this.config.redis.queuePrefix,
      concurrency: this.config.scan.concurrency,
      // A finished job leaves nothing behind, so the producer's jobId de-duplicates only while a
      // job is waiting, delayed or running. Failed jobs stay a week for inspection.
      removeOnComplete: { count: 0 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    worker.on('error', (error) => this.logger.error(`Queue ${this.queue}: ${error.message}`));
    worker.on('failed', (job, error) => {
      if (job) this.logger.warn(`Job ${job.id} (${job.name}) failed: ${error.message}`);
    });
    this.worker = worker;
    await worker.waitUntilReady();
    this.logger.log(
      `Consuming ${this.queue} (jobs: ${this.registry.names.join(', ')}; concurrency ${this.config.scan.concurrency})`,
    );
  }

  /** Stops taking jobs and waits for the running ones to finish. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.close();
  }

  private async process(job: Job, token: string | undefined): Promise<unknown> {
    const parsed = this.registry.parse(job.name, job.data);
    if (!parsed.ok) {
      this.logger.error(`Job ${job.id} refused: ${parsed.error.message}`);
      throw new UnrecoverableError(parsed.error.message);
    }
    const ctx = { jobId: String(job.id), attempt: Math.max(1, job.attemptsStarted) };
    let outcome;
    try {
      outcome = await parsed.handler.handle(parsed.payload, ctx);
    } catch (error) {
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final && parsed.handler.onFinalFailure) {
        await parsed.handler.onFinalFailure(parsed.payload, error).catch((e: unknown) => {
          this.logger.error(`Job ${job.id}: reporting the failure failed too: ${String(e)}`);
        });
      }
      throw error;
    }
    if (outcome.kind === 'retry') {
      if (!token) throw new Error('BullMQ gave no lock token; cannot delay the job');
      await job.moveToDelayed(Date.now() + outcome.afterMs, token);
      throw new DelayedError();
    }
    return outcome.value;
  }
}
