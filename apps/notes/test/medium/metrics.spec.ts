import { ACCOUNT_PURGE_JOB, ACCOUNT_PURGE_QUEUES, ErrorCode, NOTES_PATTERNS as P } from '@vault/contracts';
import { startHealthServer, type HealthServer } from '@vault/server-kit';
import { labelValues, metricValue, parseMetrics, runQueuedJob } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import { noteBody, startNotesTestApp, testAppPerFile } from './support/notes-test-app';

/**
 * The notes service's metrics as Prometheus scrapes them from its health listener
 * (docs/metrics.md): every message handled, by pattern and outcome, its queue's depth and the
 * outcomes of its account-purge jobs, and no id of a caller or a note as a label.
 */
describe('notes metrics', () => {
  const t = testAppPerFile(() => startNotesTestApp('metrics'));
  let health: HealthServer;

  beforeAll(async () => {
    health = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      ready: async () => ({ service: 'notes', status: 'ok', uptimeSeconds: 1, checks: {} }),
    });
  });
  afterAll(() => health?.close());

  const scrape = async () =>
    parseMetrics(await (await fetch(`http://127.0.0.1:${health.port}/metrics`)).text());
  const handled = (samples: ReturnType<typeof parseMetrics>, pattern: string, outcome: string) =>
    metricValue(samples, 'rpc_server_duration_seconds_count', { pattern, outcome, service: 'notes' });

  it('counts and times every message it handles, by pattern and outcome', async () => {
    const before = await scrape();
    const u = await t.user();
    const body = noteBody();
    await u.call(P.create, body);
    await u.call(P.list, {});
    const missing = randomUUID();
    expect((await u.fail(P.remove, { id: missing })).code).toBe(ErrorCode.NOT_FOUND);

    const after = await scrape();
    expect(handled(after, P.create, 'ok')).toBe(handled(before, P.create, 'ok') + 1);
    expect(handled(after, P.list, 'ok')).toBe(handled(before, P.list, 'ok') + 1);
    expect(handled(after, P.remove, 'client_error')).toBe(handled(before, P.remove, 'client_error') + 1);
    const values = [...labelValues(after)];
    for (const id of [u.auth.userId, u.auth.sessionId, body.id, missing]) {
      expect(values.filter((v) => v.includes(id))).toEqual([]);
    }
  });

  it('shows the depth of its account-purge queue and the outcome of its jobs', async () => {
    const u = await t.user();
    const queue = ACCOUNT_PURGE_QUEUES.notes;
    const before = metricValue(await scrape(), 'jobs_total', { queue, outcome: 'completed' });
    const job = await runQueuedJob(
      t.queue(queue),
      ACCOUNT_PURGE_JOB,
      { userId: u.auth.userId, requestedAt: new Date().toISOString() },
      { jobId: `purge-${u.auth.userId}`, attempts: 3 },
    );
    expect(await job.getState()).toBe('completed');

    const samples = await scrape();
    expect(metricValue(samples, 'jobs_total', { queue, outcome: 'completed' })).toBe(before + 1);
    expect(metricValue(samples, 'queue_depth_up', { queue })).toBe(1);
    expect(samples.some((s) => s.name === 'queue_jobs' && s.labels.queue === queue)).toBe(true);
  });
});
