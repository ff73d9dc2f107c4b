import { InfrastructureUnavailableError, createQueueConnection, describeEndpoint } from '@vault/server-kit';
import type Redis from 'ioredis';

/** DI tokens of the worker's infrastructure. */
/** ioredis under the deployment's key prefix (scan locks, health). */
export const SCAN_REDIS = Symbol('SCAN_REDIS');
/** ioredis without a key prefix, for BullMQ (which prefixes its keys itself: config redis.queuePrefix). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

export { connectRedis } from '@vault/server-kit';

/**
 * The connection BullMQ's Worker and Queue share (the Worker adds its own blocking one).
 * server-kit's createQueueConnection, connected (or refused) at boot with a clear message.
 */
export async function connectQueueRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const client = createQueueConnection(url, { lazyConnect: true });
  // BullMQ reports its own errors; without a listener, ioredis would print each reconnect.
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return client;
  } catch (error) {
    client.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new InfrastructureUnavailableError(`Redis is unreachable at ${describeEndpoint(url)}: ${reason}`);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
