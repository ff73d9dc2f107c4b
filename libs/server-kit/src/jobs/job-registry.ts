import type { z } from 'zod';

/**
 * Jobs are typed and checked at start (docs/architecture.md "Code conventions"): a queue carries
 * a fixed set of job names, each with the zod schema of its payload; every name needs a handler,
 * or the worker refuses to start. Payloads are validated before a handler sees them.
 */
export interface JobDefinition<N extends string = string, S extends z.ZodType = z.ZodType> {
  /** The BullMQ job name producers use. */
  name: N;
  schema: S;
  /**
   * The job id of a payload. BullMQ ignores an add whose id it still holds (waiting, delayed,
   * running, or kept after it ended), so a repeated request queues the job once.
   */
  jobId?(payload: z.output<S>): string;
}

export function defineJob<N extends string, S extends z.ZodType>(
  name: N,
  schema: S,
  jobId?: (payload: z.output<S>) => string,
): JobDefinition<N, S> {
  return jobId ? { name, schema, jobId } : { name, schema };
}

export interface JobContext {
  jobId: string;
  /** 1 on the first try; counts every start of the job, retries included. */
  attempt: number;
}

export type JobOutcome =
  /** Finished; `value` becomes the job's return value. */
  | { kind: 'done'; value?: unknown }
  /** Try again after `afterMs` (the queue holds the job as delayed meanwhile). */
  | { kind: 'retry'; afterMs: number; reason: string };

export interface JobHandler<T> {
  /** Must be idempotent: a job may run again after a crash, or arrive twice. */
  handle(payload: T, ctx: JobContext): Promise<JobOutcome>;
  /** Called when the job throws and the queue will not run it again. */
  onFinalFailure?(payload: T, error: unknown): Promise<void>;
}

/** A handler that runs `run` and completes with what it returns; a throw is retried as the queue says. */
export function runJob<T>(run: (payload: T, ctx: JobContext) => Promise<unknown>): JobHandler<T> {
  return { handle: async (payload, ctx) => ({ kind: 'done', value: await run(payload, ctx) }) };
}

interface Registered {
  definition: JobDefinition;
  handler: JobHandler<unknown>;
}

/** What the worker does with a job it cannot run. */
export class InvalidJobError extends Error {
  override name = 'InvalidJobError';
}

export type ParsedJob =
  { ok: true; payload: unknown; handler: JobHandler<unknown> } | { ok: false; error: InvalidJobError };

/** A handler map whose keys and payload types follow the definitions. */
export type HandlersFor<D extends readonly JobDefinition[]> = {
  [N in D[number]['name']]: JobHandler<z.output<Extract<D[number], { name: N }>['schema']>>;
};

export class JobRegistry {
  private readonly jobs: ReadonlyMap<string, Registered>;

  private constructor(
    readonly queue: string,
    jobs: Map<string, Registered>,
  ) {
    this.jobs = jobs;
  }

  /**
   * Pairs each definition with its handler. Throws when a definition has no handler, a handler
   * has no definition, or a name is defined twice: a worker built from it would drop jobs.
   */
  static create(
    queue: string,
    definitions: readonly JobDefinition[],
    handlers: Readonly<Record<string, JobHandler<never> | undefined>>,
  ): JobRegistry {
    const problems: string[] = [];
    const jobs = new Map<string, Registered>();
    for (const definition of definitions) {
      if (jobs.has(definition.name)) {
        problems.push(`job "${definition.name}" is defined twice`);
        continue;
      }
      const handler = handlers[definition.name];
      if (!handler || typeof handler.handle !== 'function') {
        problems.push(`job "${definition.name}" has no handler`);
        continue;
      }
      jobs.set(definition.name, { definition, handler: handler as unknown as JobHandler<unknown> });
    }
    const defined = new Set(definitions.map((d) => d.name));
    for (const name of Object.keys(handlers)) {
      if (!defined.has(name)) problems.push(`handler "${name}" has no job definition`);
    }
    if (problems.length > 0) {
      throw new Error(`Queue ${queue}: refusing to start: ${problems.join('; ')}`);
    }
    return new JobRegistry(queue, jobs);
  }

  get names(): string[] {
    return [...this.jobs.keys()];
  }

  /** The handler and the validated payload of a job, or why it cannot run. */
  parse(name: string, data: unknown): ParsedJob {
    const job = this.jobs.get(name);
    if (!job) {
      return {
        ok: false,
        error: new InvalidJobError(
          `Queue ${this.queue} has no job "${name}" (known: ${this.names.join(', ') || 'none'})`,
        ),
      };
    }
    const parsed = job.definition.schema.safeParse(data);
    if (!parsed.success) {
      return {
        ok: false,
        error: new InvalidJobError(`Invalid "${name}" payload: ${describeIssues(parsed.error)}`),
      };
    }
    return { ok: true, payload: parsed.data, handler: job.handler };
  }
}

/** `path: message` of each issue, for log lines and a failed job's reason. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
}
