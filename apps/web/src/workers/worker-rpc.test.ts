// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { channelWorker, type ChannelWorker } from '../testing/channel-worker';
import { CryptoOperationError } from './crypto-service';
import { RpcError, WorkerClient, localClient, transfer, type RpcErrorInfo } from './worker-rpc';

/** A small API with every kind of call the app's workers make. */
function testApi() {
  const seen: { buffer?: ArrayBuffer; signal?: AbortSignal; notes: string[] } = { notes: [] };
  let release: (() => void) | null = null;
  const api = {
    seen,
    async add(a: number, b: number): Promise<number> {
      return a + b;
    },
    /** Answers later than a call made after it. */
    async slowEcho(value: string, ms: number): Promise<string> {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return value;
    },
    async fail(code: string): Promise<never> {
      throw new CryptoOperationError(code, `failed with ${code}`);
    },
    async failWith(info: RpcErrorInfo & { phase: string }): Promise<never> {
      throw new RpcError(info);
    },
    async keep(buffer: ArrayBuffer): Promise<number> {
      seen.buffer = buffer;
      return buffer.byteLength;
    },
    async give(size: number): Promise<Uint8Array> {
      const bytes = new Uint8Array(size).fill(7);
      return transfer(bytes, [bytes.buffer]);
    },
    async count(to: number, onStep: (n: number, piece: ArrayBuffer) => void): Promise<string> {
      for (let n = 1; n <= to; n++) {
        const piece = new ArrayBuffer(n);
        onStep(n, transfer(piece, [piece]));
      }
      return 'counted';
    },
    /** Runs until aborted (or released). */
    wait(signal: AbortSignal): Promise<string> {
      seen.signal = signal;
      return new Promise((resolve) => {
        release = () => resolve('released');
        signal.addEventListener('abort', () => resolve('aborted'));
      });
    },
    note(text: string): void {
      seen.notes.push(text);
    },
  };
  return { api, seen, release: () => release?.() };
}

type TestApi = ReturnType<typeof testApi>['api'];

function client(worker: () => ChannelWorker, options: { toError?: (info: RpcErrorInfo) => Error } = {}) {
  return new WorkerClient<TestApi>({
    start: worker,
    failure: () => new CryptoOperationError('UNSUPPORTED_ENVIRONMENT', 'The worker died'),
    ...options,
  });
}

describe('WorkerClient and exposeWorkerApi', () => {
  it('matches each answer to its call, whatever the order they come back in', async () => {
    const { api } = testApi();
    const rpc = client(() => channelWorker(api));
    const slow = rpc.call('slowEcho', 'first', 30);
    const fast = rpc.call('slowEcho', 'second', 0);
    const sum = rpc.call('add', 2, 3);
    expect(await Promise.all([slow, fast, sum])).toEqual(['first', 'second', 5]);
    rpc.terminate();
  });

  it('inOrder runs the calls one after another', async () => {
    const { api } = testApi();
    const rpc = client(() => channelWorker(api, { inOrder: true }));
    const order: string[] = [];
    await Promise.all([
      rpc.call('slowEcho', 'first', 30).then((v) => order.push(v)),
      rpc.call('slowEcho', 'second', 0).then((v) => order.push(v)),
    ]);
    expect(order).toEqual(['first', 'second']);
    rpc.terminate();
  });

  it('rejects with the failure code and message (CryptoOperationError), details through toError', async () => {
    const { api } = testApi();
    const rpc = client(() => channelWorker(api));
    await expect(rpc.call('fail', 'DECRYPT_FAILED')).rejects.toEqual(
      new CryptoOperationError('DECRYPT_FAILED', 'failed with DECRYPT_FAILED'),
    );
    await expect(rpc.call('fail', 'DECRYPT_FAILED')).rejects.toBeInstanceOf(CryptoOperationError);

    const detailed = client(() => channelWorker(api), {
      toError: (info) => Object.assign(new Error(info.message), info),
    });
    await expect(
      detailed.call('failWith', { code: 'INTERNAL', message: 'HTTP 404', phase: 'http' }),
    ).rejects.toMatchObject({ code: 'INTERNAL', message: 'HTTP 404', phase: 'http' });
    await expect((detailed as unknown as WorkerClient<{ nope(): void }>).call('nope')).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'Unknown operation: nope',
    });
    rpc.terminate();
    detailed.terminate();
  });

  it('transfers what is marked, both ways (the sender is left with a detached buffer)', async () => {
    const { api, seen } = testApi();
    const rpc = client(() => channelWorker(api));
    const buffer = new ArrayBuffer(1024);
    expect(await rpc.call('keep', transfer(buffer, [buffer]))).toBe(1024);
    expect(buffer.byteLength).toBe(0);
    expect(seen.buffer?.byteLength).toBe(1024);

    const copied = new ArrayBuffer(8);
    await rpc.call('keep', copied);
    expect(copied.byteLength).toBe(8);

    const given = await rpc.call('give', 16);
    expect(given).toEqual(new Uint8Array(16).fill(7));
    rpc.terminate();
  });

  it('delivers callback arguments (transferred) before the answer', async () => {
    const { api } = testApi();
    const rpc = client(() => channelWorker(api));
    const steps: [number, number][] = [];
    const answer = await rpc.call('count', 3, (n, piece) => steps.push([n, piece.byteLength]));
    expect(answer).toBe('counted');
    expect(steps).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    rpc.terminate();
  });

  it('an abort rejects the call at once and aborts the signal the worker got', async () => {
    const { api, seen } = testApi();
    const rpc = client(() => channelWorker(api));
    const controller = new AbortController();
    const running = rpc.call('wait', controller.signal);
    await expect.poll(() => seen.signal).toBeDefined();
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
    // An already aborted signal never reaches the worker.
    await expect(rpc.call('wait', controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    rpc.terminate();
  });

  it('rejects every pending call when the worker dies, and starts a new one on the next call', async () => {
    const { api } = testApi();
    const workers: ChannelWorker[] = [];
    const rpc = client(() => {
      const w = channelWorker(api);
      workers.push(w);
      return w;
    });
    const a = rpc.call('wait', new AbortController().signal);
    const b = rpc.call('slowEcho', 'x', 50);
    await rpc.call('add', 1, 1);
    workers[0]!.crash();
    await expect(a).rejects.toMatchObject({ code: 'UNSUPPORTED_ENVIRONMENT', message: 'The worker died' });
    await expect(b).rejects.toMatchObject({ code: 'UNSUPPORTED_ENVIRONMENT' });
    expect(workers[0]!.terminated).toBe(true);
    expect(await rpc.call('add', 2, 2)).toBe(4);
    expect(workers).toHaveLength(2);
    rpc.terminate();
  });

  it('terminate rejects pending calls with its reason', async () => {
    const { api } = testApi();
    const rpc = client(() => channelWorker(api));
    const a = rpc.call('wait', new AbortController().signal);
    const b = rpc.call('wait', new AbortController().signal);
    rpc.terminate(new CryptoOperationError('CANCELLED', 'Upload cancelled'));
    await expect(a).rejects.toMatchObject({ code: 'CANCELLED', message: 'Upload cancelled' });
    await expect(b).rejects.toMatchObject({ code: 'CANCELLED' });
    const c = rpc.call('wait', new AbortController().signal);
    rpc.terminate();
    await expect(c).rejects.toMatchObject({ code: 'CANCELLED', message: 'The worker was stopped' });
  });

  it('a worker that cannot start rejects the call with why', async () => {
    const rpc = new WorkerClient<TestApi>({
      start: () => {
        throw new CryptoOperationError('UNSUPPORTED_ENVIRONMENT', 'no Web Workers');
      },
      failure: () => new Error('unused'),
    });
    await expect(rpc.call('add', 1, 2)).rejects.toMatchObject({ code: 'UNSUPPORTED_ENVIRONMENT' });
    rpc.warm();
  });

  it('notify reaches a running worker without an answer, and is dropped when none runs', async () => {
    const { api, seen } = testApi();
    const workers: ChannelWorker[] = [];
    const rpc = client(() => {
      const w = channelWorker(api);
      workers.push(w);
      return w;
    });
    rpc.notify('note', 'dropped');
    expect(workers).toHaveLength(0);
    rpc.warm();
    rpc.notify('note', 'kept');
    await expect.poll(() => seen.notes).toEqual(['kept']);
    rpc.terminate();
  });
});

describe('localClient', () => {
  it('runs the API in-thread, with failures shaped exactly as the worker sends them', async () => {
    const { api } = testApi();
    const local = localClient(async () => api);
    expect(await local.call('add', 2, 3)).toBe(5);
    await expect(local.call('fail', 'BAD_INPUT')).rejects.toEqual(
      new CryptoOperationError('BAD_INPUT', 'failed with BAD_INPUT'),
    );
    const steps: number[] = [];
    expect(await local.call('count', 2, (n) => steps.push(n))).toBe('counted');
    expect(steps).toEqual([1, 2]);
  });
});
