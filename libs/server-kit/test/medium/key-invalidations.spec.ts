import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { KeyInvalidations } from '../../src/redis';
import { createTestRedis, type TestRedis } from '../../src/testing';

/** Resolves once `check` holds, polling every 5 ms; fails after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - started;
}

/** A TCP relay to Redis that can stop passing bytes while keeping its connections open. */
class FreezableRelay {
  frozen = false;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  constructor(target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk) => this.frozen || upstream.write(chunk));
      upstream.on('data', (chunk) => this.frozen || client.write(chunk));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe(KeyInvalidations.name, () => {
  let redis: TestRedis;
  const watches: KeyInvalidations[] = [];

  function watch(url = redis.url, heartbeatMs?: number) {
    const keys: (string | null)[] = [];
    const states: [boolean, string | undefined][] = [];
    const w = new KeyInvalidations({
      url,
      prefix: `${redis.prefix}sess:`,
      onInvalidate: (key) => keys.push(key),
      onStateChange: (up, reason) => states.push([up, reason]),
      ...(heartbeatMs ? { heartbeatMs } : {}),
    });
    watches.push(w);
    return { w, keys, states };
  }

  beforeAll(async () => {
    redis = await createTestRedis('key-watch');
  });

  afterAll(async () => {
    await Promise.all(watches.map((w) => w.close()));
    await redis?.cleanup();
  });

  it('reports every write, deletion and expiry of a key under its prefix, and nothing else', async () => {
    const { w, keys, states } = watch();
    await w.start();
    expect(w.watching).toBe(true);
    const generation = w.generation;
    await redis.client.hset('sess:a', 'userId', 'u1');
    await redis.client.set('sess-rot:a', '1');
    await redis.client.set('other:a', '1');
    await redis.client.del('sess:a');
    await redis.client.set('sess:b', '1', 'PX', 50);
    await new Promise((resolve) => setTimeout(resolve, 80));
    // Read after its expiry: Redis deletes it then at the latest (and reports it).
    expect(await redis.client.exists('sess:b')).toBe(0);
    await until(() => keys.length >= 4, 2000, 'the expiry of sess:b');
    const [a, b] = [`${redis.prefix}sess:a`, `${redis.prefix}sess:b`];
    expect(keys).toEqual([a, a, b, b]);
    expect(w.generation).toBeGreaterThan(generation);
    // Closing forgets everything but reports no loss (no warning at a normal shutdown).
    await w.close();
    expect(w.watching).toBe(false);
    expect(keys.at(-1)).toBeNull();
    expect(states).toEqual([[true, undefined]]);
  });

  it('says everything may have changed when its connection is lost, and watches again once Redis answers', async () => {
    const { w, keys, states } = watch();
    await w.start();
    const id = w.connectionId;
    expect(id).toEqual(expect.any(Number));
    const admin = new Redis(redis.url);
    try {
      await admin.client('KILL', 'ID', String(id));
    } finally {
      admin.disconnect();
    }
    await until(() => !w.watching, 2000, 'the watch lost');
    expect(keys).toContain(null);
    await until(() => w.watching, 5000, 'the watch back');
    expect(states.map(([up]) => up)).toEqual([true, false, true]);
    await redis.client.del('sess:after');
    await redis.client.set('sess:after', '1');
    await until(() => keys.includes(`${redis.prefix}sess:after`), 2000, 'a write after the reconnection');
  });

  it('ends the watch when a ping goes unanswered, and sets it up again on a fresh connection', async () => {
    const relay = new FreezableRelay(new URL(redis.url));
    const url = await relay.start();
    try {
      const { w, keys, states } = watch(url, 100);
      await w.start();
      relay.frozen = true;
      const lostAfter = await until(() => !w.watching, 2000, 'the watch lost');
      expect(lostAfter).toBeLessThan(500);
      expect(keys).toContain(null);
      expect(states.at(-1)?.[1]).toMatch(/no answer to a ping/);
      relay.frozen = false;
      await until(() => w.watching, 5000, 'the watch back');
    } finally {
      await relay.stop();
    }
  });
});
