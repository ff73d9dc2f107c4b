import 'reflect-metadata';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { MessagePattern, RpcException } from '@nestjs/microservices';
import { ErrorCode, VaultError } from '@vault/contracts';
import { lastValueFrom, of, throwError } from 'rxjs';
import { ZodError } from 'zod';
import { recordHttpRequest, UNMATCHED_ROUTE } from './http-metrics';
import { QUEUE_DEPTH_TIMEOUT_MS, recordJob, watchQueueDepth } from './job-metrics';
import { metricValue, parseMetrics } from '../testing/metrics-text';
import { renderMetrics, setMetricsService } from './registry';
import { RpcMetricsInterceptor, rpcOutcomeOf, timedRpcCall } from './rpc-metrics';

/** The value of `name` summed over the samples whose labels include `labels`, as a scrape reads it. */
async function valueOf(name: string, labels: Record<string, string> = {}): Promise<number> {
  return metricValue(parseMetrics((await renderMetrics()).body), name, labels);
}

describe('metrics registry', () => {
  it("serves Node's default metrics in Prometheus' text format, every series named after the service", async () => {
    setMetricsService('kit-test');
    const { contentType, body } = await renderMetrics();
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(body).toMatch(new RegExp(`^${name}\\{service="kit-test"\\} \\d`, 'm'));
    }
    expect(body).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);
  });
});

describe(recordHttpRequest.name, () => {
  it('counts by method, route pattern and status, and times by method and route', async () => {
    const labels = { method: 'GET', route: '/api/notes/:id' };
    const before = await valueOf('http_requests_total', { ...labels, status: '200' });
    recordHttpRequest({ ...labels, status: 200, seconds: 0.012 });
    recordHttpRequest({ ...labels, status: 200, seconds: 0.2 });
    expect(await valueOf('http_requests_total', { ...labels, status: '200' })).toBe(before + 2);
    expect(await valueOf('http_request_duration_seconds_count', labels)).toBe(2);
    expect(await valueOf('http_request_duration_seconds_bucket', { ...labels, le: '0.025' })).toBe(1);
    expect(await valueOf('http_request_duration_seconds_bucket', { ...labels, le: '0.25' })).toBe(2);
  });

  it('labels a request no route matched "unmatched" and an unusual method OTHER', async () => {
    recordHttpRequest({ method: 'PROPFIND', route: undefined, status: 404, seconds: 0.001 });
    expect(
      await valueOf('http_requests_total', { method: 'OTHER', route: UNMATCHED_ROUTE, status: '404' }),
    ).toBe(1);
  });
});

describe(rpcOutcomeOf.name, () => {
  it.each<[string, unknown, string]>([
    ['a refusal the caller sees as a 4xx', new VaultError(ErrorCode.NOT_FOUND), 'client_error'],
    ['a rate limit', new VaultError(ErrorCode.RATE_LIMITED), 'client_error'],
    ['a validation error from zod', new ZodError([]), 'client_error'],
    ['a peer down or silent', new VaultError(ErrorCode.SERVICE_UNAVAILABLE), 'unavailable'],
    ['an internal error', new VaultError(ErrorCode.INTERNAL), 'server_error'],
    ['a wrapped error payload', new RpcException({ code: ErrorCode.CONFLICT, message: 'x' }), 'client_error'],
    ['anything else', new TypeError('boom'), 'server_error'],
  ])('classes %s', (_what, error, outcome) => {
    expect(rpcOutcomeOf(error)).toBe(outcome);
  });
});

describe(timedRpcCall.name, () => {
  it('times calls by pattern and outcome, and passes the answer or the error through', async () => {
    await expect(timedRpcCall('notes.list', async () => 'answer')).resolves.toBe('answer');
    const refused = new VaultError(ErrorCode.NOT_FOUND);
    await expect(timedRpcCall('notes.list', () => Promise.reject(refused))).rejects.toBe(refused);
    const count = (outcome: string) =>
      valueOf('rpc_client_duration_seconds_count', { pattern: 'notes.list', outcome });
    expect(await count('ok')).toBe(1);
    expect(await count('client_error')).toBe(1);
  });
});

describe(RpcMetricsInterceptor.name, () => {
  class Handlers {
    @MessagePattern('notes.create')
    create(): void {}
  }
  const context = (type: string): ExecutionContext =>
    ({ getType: () => type, getHandler: () => Handlers.prototype.create }) as unknown as ExecutionContext;
  const count = (outcome: string) =>
    valueOf('rpc_server_duration_seconds_count', { pattern: 'notes.create', outcome });

  it("times each handled message under its handler's pattern, with how it ended", async () => {
    const interceptor = new RpcMetricsInterceptor();
    const ok: CallHandler = { handle: () => of({ id: 1 }) };
    await expect(lastValueFrom(interceptor.intercept(context('rpc'), ok))).resolves.toEqual({ id: 1 });
    const failing: CallHandler = { handle: () => throwError(() => new VaultError(ErrorCode.INTERNAL)) };
    await expect(lastValueFrom(interceptor.intercept(context('rpc'), failing))).rejects.toBeInstanceOf(
      VaultError,
    );
    expect(await count('ok')).toBe(1);
    expect(await count('server_error')).toBe(1);
  });

  it('leaves other kinds of context alone', async () => {
    const before = await count('ok');
    await lastValueFrom(new RpcMetricsInterceptor().intercept(context('http'), { handle: () => of(1) }));
    expect(await count('ok')).toBe(before);
  });
});

describe('job metrics', () => {
  it('counts job outcomes and times them by queue', async () => {
    recordJob('unit-queue', 'completed', 0.3);
    recordJob('unit-queue', 'failed_final', 1.2);
    expect(await valueOf('jobs_total', { queue: 'unit-queue', outcome: 'completed' })).toBe(1);
    expect(await valueOf('jobs_total', { queue: 'unit-queue', outcome: 'failed_final' })).toBe(1);
    expect(
      await valueOf('job_duration_seconds_sum', { queue: 'unit-queue', outcome: 'completed' }),
    ).toBeCloseTo(0.3);
  });

  it('counts queue depths at scrape time, once per queue, leaving out a queue that does not answer in time', async () => {
    const first = jest.fn(async () => ({ waiting: 3, active: 1, delayed: 2, failed: 5 }));
    const second = jest.fn(async () => ({ waiting: 99 }));
    const stopFirst = watchQueueDepth('depth-a', first);
    const stopSecond = watchQueueDepth('depth-a', second);
    const stopSlow = watchQueueDepth('depth-slow', () => new Promise(() => undefined));

    const started = Date.now();
    const { body } = await renderMetrics();
    expect(Date.now() - started).toBeLessThan(QUEUE_DEPTH_TIMEOUT_MS + 1000);
    expect(body).toMatch(/^queue_jobs\{queue="depth-a",state="waiting",service="kit-test"\} 3$/m);
    expect(body).toMatch(/^queue_jobs\{queue="depth-a",state="failed",service="kit-test"\} 5$/m);
    expect(body).not.toMatch(/queue_jobs\{queue="depth-slow"/);
    expect(body).toMatch(/^queue_depth_up\{queue="depth-slow",service="kit-test"\} 0$/m);
    expect(body).toMatch(/^queue_depth_up\{queue="depth-a",service="kit-test"\} 1$/m);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();

    // When the first holder closes, the next one is counted; when none is left, the queue goes.
    stopFirst();
    stopSlow();
    expect((await renderMetrics()).body).toMatch(
      /^queue_jobs\{queue="depth-a",state="waiting",service="kit-test"\} 99$/m,
    );
    stopSecond();
    expect((await renderMetrics()).body).not.toMatch(/queue="depth-a"/);
  });
});
