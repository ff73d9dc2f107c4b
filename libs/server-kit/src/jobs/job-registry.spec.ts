import { z } from 'zod';
import { JobRegistry, type JobHandler } from './job-registry';

const ping = { name: 'ping', schema: z.object({ n: z.number().int() }) };
const pong = { name: 'pong', schema: z.object({ s: z.string() }) };
const handler = (): JobHandler<unknown> => ({ handle: async () => ({ kind: 'done' }) });

describe(JobRegistry.name, () => {
  it('refuses to start when a job has no handler', () => {
    expect(() => JobRegistry.create('q', [ping, pong], { ping: handler() })).toThrow(
      'Queue q: refusing to start: job "pong" has no handler',
    );
  });

  it('refuses a handler without a job definition, and a job defined twice', () => {
    expect(() => JobRegistry.create('q', [ping, ping], { ping: handler(), stray: handler() })).toThrow(
      'Queue q: refusing to start: job "ping" is defined twice; handler "stray" has no job definition',
    );
  });

  it('refuses a handler slot that holds nothing', () => {
    expect(() => JobRegistry.create('q', [ping], { ping: undefined })).toThrow('job "ping" has no handler');
  });

  it('hands a valid payload, parsed by its schema, to its handler', () => {
    const h = handler();
    const registry = JobRegistry.create('q', [ping, pong], { ping: h, pong: handler() });
    expect(registry.names).toEqual(['ping', 'pong']);
    const parsed = registry.parse('ping', { n: 3, extra: 'dropped' });
    expect(parsed).toEqual({ ok: true, payload: { n: 3 }, handler: h });
  });

  it('refuses an unknown job name', () => {
    const registry = JobRegistry.create('q', [ping], { ping: handler() });
    const parsed = registry.parse('pang', {});
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toBe('Queue q has no job "pang" (known: ping)');
  });

  it('refuses an invalid payload, naming each bad field', () => {
    const registry = JobRegistry.create('q', [ping], { ping: handler() });
    const parsed = registry.parse('ping', { n: 'x' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(/^Invalid "ping" payload: n: /);
  });
});
