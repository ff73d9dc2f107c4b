import type Redis from 'ioredis';
import { createQueueConnection, queuePrefix } from '../redis/redis';
import type { HandlersFor, JobDefinition } from './job-registry';
import { JobQueue, type QueueConnection } from './job-queue';
import { JobWorker, type JobWorkerOptions } from './job-worker';
import type { QueueDefinition } from './queues';

/**
 * A service's queues and workers on one BullMQ connection, closed together: workers first (their
 * running jobs finish), then the queues, then the connection when it was made here.
 */
export class JobQueues {
  private readonly queues = new Map<string, JobQueue>();
  private readonly workers: JobWorker[] = [];

  constructor(
    private readonly where: QueueConnection,
    private readonly ownsConnection = false,
  ) {}

  /** With a connection of its own to the deployment's Redis (closed by `close`). */
  static connect(redis: { url: string; prefix: string }): JobQueues {
    return new JobQueues(
      { connection: createQueueConnection(redis.url), prefix: queuePrefix(redis.prefix) },
      true,
    );
  }

  get connection(): Redis {
    return this.where.connection;
  }

  /** The producer of a queue (one per queue and connection). */
  queue<D extends readonly JobDefinition[]>(definition: QueueDefinition<D>): JobQueue<D> {
    let queue = this.queues.get(definition.name);
    if (!queue) {
      queue = new JobQueue(definition, this.where);
      this.queues.set(definition.name, queue);
    }
    return queue as unknown as JobQueue<D>;
  }

  /** A consumer of a queue; throws at once when a job of the queue has no handler. Call `start` on it. */
  worker<D extends readonly JobDefinition[]>(
    definition: QueueDefinition<D>,
    handlers: HandlersFor<NoInfer<D>>,
    options: JobWorkerOptions,
  ): JobWorker<D> {
    const worker = new JobWorker(definition, handlers, this.where, options);
    // Its producer too, so a process that only consumes a queue still reports its depth.
    this.queue(definition);
    this.workers.push(worker as unknown as JobWorker);
    return worker;
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.workers.map((worker) => worker.close()));
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    if (this.ownsConnection) this.connection.disconnect();
  }
}
