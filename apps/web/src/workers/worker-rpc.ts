import { CryptoOperationError, cryptoErrorCode } from './crypto-service';

/**
 * The one request/answer layer between the page and the app's Workers (crypto, notes, files,
 * files-download). A worker serves an API object (`exposeWorkerApi`); the page calls its methods
 * by name (`WorkerClient.call`), with the argument and result types of the API's own functions.
 *
 * Our own small layer rather than comlink: comlink sends a thrown error as {message, name, stack}
 * (the `code` the UI turns into a message is lost), leaves calls pending forever when the worker
 * dies or is terminated, and makes every callback a proxy with its own MessageChannel and a round
 * trip per call (the download sends a callback per 1 MiB piece).
 *
 * What crosses, besides structured clones of arguments and results:
 * - `transfer(value, list)` moves `list` (ArrayBuffers, streams) instead of copying it: for an
 *   argument, a callback's argument or a result;
 * - a function argument (top level only): the worker calls a stand-in that posts its arguments
 *   back; the page calls the function with them (progress, pieces). Nothing is returned;
 * - an AbortSignal argument (top level only): the worker's function gets a signal that aborts
 *   with it, and the page's call rejects at once with an AbortError;
 * - a failure, as `{code, message, ...}` (RpcErrorInfo), rebuilt on the page by `toError`.
 * When the worker fails (an 'error' event) or is terminated, every pending call rejects.
 */

/** A failure as it crosses the boundary (VaultCryptoError's code and message, and any details). */
export interface RpcErrorInfo {
  code: string;
  message: string;
}

/** Thrown by an API function to send exactly `info` (details included) as its failure. */
export class RpcError<Info extends RpcErrorInfo = RpcErrorInfo> extends Error {
  constructor(readonly info: Info) {
    super(info.message);
    this.name = 'RpcError';
  }
}

type Fn = (...args: never) => unknown;

/** The API's method names. */
export type RpcMethod<Api> = {
  [K in keyof Api]: Api[K] extends Fn ? K : never;
}[keyof Api] &
  string;
export type RpcArgs<Api, M extends keyof Api> = Api[M] extends (...args: infer A extends unknown[]) => unknown
  ? A
  : never;
export type RpcResult<Api, M extends keyof Api> = Api[M] extends (...args: never) => infer R
  ? Awaited<R>
  : never;

/** Calls an API by method name: in a worker (WorkerClient) or on this thread (localClient). */
export interface RpcClient<Api> {
  call<M extends RpcMethod<Api>>(method: M, ...args: RpcArgs<Api, M>): Promise<RpcResult<Api, M>>;
}

const transfers = new WeakMap<object, Transferable[]>();

/** Marks `value` so that `list` is transferred with it (each mark is used once). */
export function transfer<T extends object>(value: T, list: Transferable[]): T {
  transfers.set(value, list);
  return value;
}

function transferList(values: readonly unknown[]): Transferable[] {
  const list: Transferable[] = [];
  for (const value of values) {
    if (typeof value !== 'object' || value === null) continue;
    const marked = transfers.get(value);
    if (!marked) continue;
    transfers.delete(value);
    list.push(...marked);
  }
  return list;
}

/** What a function or AbortSignal argument becomes on the wire. */
type Marker = { rpc: 'callback' } | { rpc: 'signal' };

type CallMessage = { id: number; method: string; args: unknown[] };
/** From the page: a call (`id` 0: a notification, never answered), or the abort of a running call. */
type PageMessage = CallMessage | { id: number; abort: true };
/** From the worker: a callback's arguments, then the call's one answer. */
type WorkerMessage =
  | { id: number; callback: number; args: unknown[] }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: RpcErrorInfo };

function isMarker(value: unknown, kind: Marker['rpc']): boolean {
  return typeof value === 'object' && value !== null && (value as { rpc?: unknown }).rpc === kind;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function abortError(): Error {
  const error = new Error('The call was cancelled');
  error.name = 'AbortError';
  return error;
}

/** Any failure as `{code, message}` (errors do not clone well, and lose their code on the way). */
export function describeError(error: unknown): RpcErrorInfo {
  if (error instanceof RpcError) return error.info as RpcErrorInfo;
  return {
    code: cryptoErrorCode(error) ?? 'INTERNAL',
    message: error instanceof Error ? error.message : 'The operation failed',
  };
}

const encryptionWorkerFailed = () =>
  new CryptoOperationError(
    'UNSUPPORTED_ENVIRONMENT',
    'The encryption worker could not start. Please reload the page.',
  );

const defaultToError = (info: RpcErrorInfo): Error => new CryptoOperationError(info.code, info.message);

function invoke(api: object, method: string, args: unknown[]): unknown {
  const fn = (api as Record<string, unknown>)[method];
  if (typeof fn !== 'function' || method in Object.prototype) {
    throw new Error(`Unknown operation: ${method}`);
  }
  return (fn as (...a: unknown[]) => unknown).apply(api, args);
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  callbacks: Map<number, (...args: unknown[]) => void>;
  /** Stops listening to the call's abort signals. */
  release(): void;
}

export interface WorkerClientOptions {
  /** Starts the worker: on the first call, and on the first after a failure. May throw. */
  start(): Worker;
  /** What pending calls reject with when the worker fails (could not start, or died). */
  failure?(): Error;
  /** The page's error for a failure the worker answered; CryptoOperationError by default. */
  toError?(info: RpcErrorInfo): Error;
}

/** The page's side of one worker: started on first use, calls matched to answers by id. */
export class WorkerClient<Api> implements RpcClient<Api> {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly options: WorkerClientOptions) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.options.start();
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => this.receive(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.terminate((this.options.failure ?? encryptionWorkerFailed)());
    });
    this.worker = worker;
    return worker;
  }

  private receive(message: WorkerMessage): void {
    const call = this.pending.get(message.id);
    if (!call) return;
    if ('callback' in message) {
      call.callbacks.get(message.callback)?.(...message.args);
      return;
    }
    this.settle(message.id);
    if (message.ok) call.resolve(message.result);
    else call.reject((this.options.toError ?? defaultToError)(message.error));
  }

  private settle(id: number): void {
    this.pending.get(id)?.release();
    this.pending.delete(id);
  }

  call<M extends RpcMethod<Api>>(method: M, ...args: RpcArgs<Api, M>): Promise<RpcResult<Api, M>> {
    return new Promise<RpcResult<Api, M>>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (error) {
        reject(asError(error));
        return;
      }
      const id = this.nextId++;
      const callbacks = new Map<number, (...a: unknown[]) => void>();
      const signals: AbortSignal[] = [];
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        this.settle(id);
        this.post({ id, abort: true }, []);
        reject(abortError());
      };
      const wire = args.map((arg: unknown, index): unknown => {
        if (typeof arg === 'function') {
          callbacks.set(index, arg as (...a: unknown[]) => void);
          return { rpc: 'callback' } satisfies Marker;
        }
        if (arg instanceof AbortSignal) {
          signals.push(arg);
          return { rpc: 'signal' } satisfies Marker;
        }
        return arg;
      });
      if (signals.some((s) => s.aborted)) {
        reject(abortError());
        return;
      }
      const release = () => signals.forEach((s) => s.removeEventListener('abort', onAbort));
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, callbacks, release });
      signals.forEach((s) => s.addEventListener('abort', onAbort, { once: true }));
      try {
        worker.postMessage({ id, method, args: wire } satisfies PageMessage, transferList(args));
      } catch (error) {
        this.settle(id);
        reject(asError(error));
      }
    });
  }

  /** One method of the API as a function of its own (for clients whose methods are the API's). */
  method<M extends RpcMethod<Api>>(method: M): (...args: RpcArgs<Api, M>) => Promise<RpcResult<Api, M>> {
    return (...args) => this.call(method, ...args);
  }

  /** Calls `method` without waiting for (or getting) an answer; only a running worker gets it. */
  notify<M extends RpcMethod<Api>>(method: M, ...args: RpcArgs<Api, M>): void {
    this.post({ id: 0, method, args }, transferList(args));
  }

  private post(message: PageMessage, list: Transferable[]): void {
    try {
      this.worker?.postMessage(message, list);
    } catch {
      // The worker is gone: its error handler settles what was pending.
    }
  }

  /** Starts the worker ahead of its first call; a failure waits for that call. */
  warm(): void {
    try {
      this.ensureWorker();
    } catch {
      // The next call reports it.
    }
  }

  /** Stops the worker (a new one starts on the next call); every pending call rejects with `reason`. */
  terminate(reason: Error = new CryptoOperationError('CANCELLED', 'The worker was stopped')): void {
    const calls = [...this.pending.values()];
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    for (const call of calls) {
      call.release();
      call.reject(reason);
    }
  }
}

/**
 * The same API on this thread, for where no Worker exists (jsdom tests, old browsers) and for
 * tests that want the real crypto in-thread. Failures go through the same describeError and
 * toError as the worker's, so they look exactly alike. `load` may import the API lazily (the
 * main bundle then does not carry the crypto code). Arguments are passed as they are.
 */
export function localClient<Api extends object>(
  load: () => Api | Promise<Api>,
  toError: (info: RpcErrorInfo) => Error = defaultToError,
): RpcClient<Api> {
  return {
    async call<M extends RpcMethod<Api>>(method: M, ...args: RpcArgs<Api, M>): Promise<RpcResult<Api, M>> {
      const api = await load();
      try {
        return (await invoke(api, method, args)) as RpcResult<Api, M>;
      } catch (error) {
        throw toError(describeError(error));
      }
    },
  };
}

/** Where a worker gets its calls: its global scope (the default) or a MessagePort (tests). */
export interface RpcEndpoint {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

export interface ExposeOptions {
  /** Run calls one after another, in the order they arrive (else side by side). */
  inOrder?: boolean;
  endpoint?: RpcEndpoint;
}

/** The worker's side: answers every call to `api` that arrives at the endpoint. */
export function exposeWorkerApi(api: object, options: ExposeOptions = {}): void {
  const endpoint = options.endpoint ?? (self as unknown as RpcEndpoint);
  const aborts = new Map<number, AbortController>();
  let queue: Promise<void> = Promise.resolve();

  const run = async (id: number, method: string, args: unknown[]) => {
    try {
      const result = await invoke(api, method, args);
      if (id !== 0)
        endpoint.postMessage({ id, ok: true, result } satisfies WorkerMessage, transferList([result]));
    } catch (error) {
      if (id !== 0)
        endpoint.postMessage({ id, ok: false, error: describeError(error) } satisfies WorkerMessage, []);
    } finally {
      aborts.delete(id);
    }
  };

  endpoint.addEventListener('message', (event: MessageEvent<PageMessage>) => {
    const message = event.data;
    if ('abort' in message) {
      aborts.get(message.id)?.abort();
      return;
    }
    const { id } = message;
    // Set up before any queueing, so an abort that arrives while the call waits still reaches it.
    const args = message.args.map((arg, index) => {
      if (isMarker(arg, 'callback')) {
        return (...values: unknown[]) =>
          endpoint.postMessage(
            { id, callback: index, args: values } satisfies WorkerMessage,
            transferList(values),
          );
      }
      if (isMarker(arg, 'signal')) {
        const controller = aborts.get(id) ?? new AbortController();
        aborts.set(id, controller);
        return controller.signal;
      }
      return arg;
    });
    if (options.inOrder) queue = queue.then(() => run(id, message.method, args));
    else void run(id, message.method, args);
  });
}
