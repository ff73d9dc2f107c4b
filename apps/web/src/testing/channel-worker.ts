import { WorkerClient, exposeWorkerApi, type ExposeOptions } from '../workers/worker-rpc';

export interface ChannelWorker extends Worker {
  /** Fires the 'error' a worker that dies (or cannot start) fires. */
  crash(): void;
  readonly terminated: boolean;
}

/**
 * A Worker stand-in: `api` served by the workers' own exposeWorkerApi behind a MessageChannel, so
 * every message is really cloned (streams and buffers really transferred) and crosses a task
 * boundary, as with the browser's Worker.
 */
export function channelWorker(api: object, options: Omit<ExposeOptions, 'endpoint'> = {}): ChannelWorker {
  const channel = new MessageChannel();
  exposeWorkerApi(api, { ...options, endpoint: channel.port2 });
  channel.port2.start();
  const port = channel.port1;
  port.start();
  const errorListeners: EventListener[] = [];
  let terminated = false;
  const stub = {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (type: string, listener: EventListener) => {
      if (type === 'message') port.addEventListener('message', listener);
      if (type === 'error') errorListeners.push(listener);
    },
    terminate: () => {
      terminated = true;
      port.close();
      channel.port2.close();
    },
    crash: () => {
      const event = new Event('error', { cancelable: true });
      for (const listener of errorListeners) listener(event);
    },
    get terminated() {
      return terminated;
    },
  };
  return stub as unknown as ChannelWorker;
}

/** A WorkerClient of `api` served by a channelWorker (a new one after a failure). */
export function channelClient<Api extends object>(
  api: Api,
  options: Omit<ExposeOptions, 'endpoint'> = {},
): WorkerClient<Api> {
  return new WorkerClient<Api>({
    start: () => channelWorker(api, options),
    failure: () => new Error('The worker failed'),
  });
}
