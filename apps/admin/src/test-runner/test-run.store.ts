import { Inject, Injectable } from '@nestjs/common';
import type { ServerTestRun } from '@vault/contracts';
import type Redis from 'ioredis';
import { ADMIN_REDIS } from '../repositories/connections';

/**
 * How long a run, its output and its stop request are kept: a day, enough to read a run back,
 * little for Redis to hold (5,000 lines of 1,000 characters at most per run).
 */
const KEEP_SECONDS = 24 * 3600;

const keys = {
  /** The run going on: its id while its replica refreshes it (SET NX PX, a heartbeat). */
  lock: 'test-runner:lock',
  /** The id of the run started last and not finished yet (its lock tells whether its replica lives). */
  current: 'test-runner:current',
  /** The id of the last run that finished. */
  last: 'test-runner:last',
  /** A hash: `run` (the record as JSON) and `dropped` (output lines past the limit). */
  run: (id: string) => `test-runner:run:${id}`,
  /** The kept output lines, in order. */
  output: (id: string) => `test-runner:output:${id}`,
  /** Set by a replica asked to stop a run that another replica runs; its owner polls it. */
  stop: (id: string) => `test-runner:stop:${id}`,
};

// Both act only while the key still holds this run's id: a lock that expired may be another run's.
const REFRESH_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * The server test runner's state in Redis, so every admin replica answers the same: one run at a
 * time (the lock), the runs and their output (any replica pages it), and stop requests.
 */
@Injectable()
export class TestRunStore {
  constructor(@Inject(ADMIN_REDIS) private readonly redis: Redis) {}

  async acquireLock(runId: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(keys.lock, runId, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** Extends the lock; false when it was lost (it expired, and another run may hold it now). */
  async refreshLock(runId: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(REFRESH_SCRIPT, 1, keys.lock, runId, ttlMs)) === 1;
  }

  async releaseLock(runId: string): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, keys.lock, runId);
  }

  lockHolder(): Promise<string | null> {
    return this.redis.get(keys.lock);
  }

  currentId(): Promise<string | null> {
    return this.redis.get(keys.current);
  }

  lastId(): Promise<string | null> {
    return this.redis.get(keys.last);
  }

  /** Stores a new run as the current one. */
  async create(run: ServerTestRun): Promise<void> {
    await this.redis
      .multi()
      .hset(keys.run(run.id), { run: JSON.stringify(run), dropped: 0 })
      .expire(keys.run(run.id), KEEP_SECONDS)
      .set(keys.current, run.id, 'EX', KEEP_SECONDS)
      .exec();
  }

  /** Appends output lines in order, and counts the lines dropped past the limit. */
  async append(runId: string, lines: readonly string[], dropped: number): Promise<void> {
    const tx = this.redis.multi();
    if (lines.length > 0) tx.rpush(keys.output(runId), ...lines).expire(keys.output(runId), KEEP_SECONDS);
    if (dropped > 0) tx.hincrby(keys.run(runId), 'dropped', dropped);
    await tx.exec();
  }

  /**
   * Stores a run that ended as the last one and no longer current (when it still is). Written
   * before its lock is released, so a run whose lock is gone while it reads `running` is one
   * whose replica died.
   */
  async finish(run: ServerTestRun): Promise<void> {
    await this.redis
      .multi()
      .hset(keys.run(run.id), 'run', JSON.stringify(run))
      .expire(keys.run(run.id), KEEP_SECONDS)
      .set(keys.last, run.id, 'EX', KEEP_SECONDS)
      .exec();
    await this.redis.eval(RELEASE_SCRIPT, 1, keys.current, run.id);
  }

  /** A run with its output counts as they are now; null when unknown (or older than a day). */
  async read(runId: string): Promise<ServerTestRun | null> {
    const result = await this.redis
      .multi()
      .hget(keys.run(runId), 'run')
      .hget(keys.run(runId), 'dropped')
      .llen(keys.output(runId))
      .exec();
    const failed = result?.find(([error]) => error)?.[0];
    if (failed || !result) throw failed ?? new Error('Redis transaction aborted');
    const [json, dropped, lines] = result.map(([, value]) => value);
    if (typeof json !== 'string') return null;
    const run = JSON.parse(json) as ServerTestRun;
    return { ...run, lines: Number(lines ?? 0), droppedLines: Number(dropped ?? 0) };
  }

  /** Output lines `from` (0-based), at most `count`. */
  page(runId: string, from: number, count: number): Promise<string[]> {
    return this.redis.lrange(keys.output(runId), from, from + count - 1);
  }

  async requestStop(runId: string): Promise<void> {
    await this.redis.set(keys.stop(runId), '1', 'EX', 3600);
  }

  async stopRequested(runId: string): Promise<boolean> {
    return (await this.redis.exists(keys.stop(runId))) === 1;
  }
}
